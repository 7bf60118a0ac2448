// A tool call is an answer: a role with checks passes a correct one through untouched, whatever
// finish reason the provider gives it (`tool_calls`; `stop`, as some OpenAI-compatible APIs
// send; the legacy `function_call`) and with a short preface of text beside it. The upstream
// plays exact wire scripts; the official openai client reads the gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';
import { metricsText } from '../helpers/metrics.js';
import { sseChunk, startScriptedUpstream, type Script, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const ASK = [{ role: 'user' as const, content: 'What is the weather in Paris right now?' }];
const TOOLS = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const CALL = { id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };

const completion = (message: Record<string, unknown>, finish: string) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] });

/** The call streamed in pieces: its id and name first, then the arguments in two fragments. */
const streamedCall = (finish: string, preface = ''): Script => async (write) => {
  write(sseChunk({ role: 'assistant', content: preface || null }));
  write(sseChunk({ tool_calls: [{ index: 0, id: CALL.id, type: 'function', function: { name: 'weather', arguments: '' } }] }));
  write(sseChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }));
  write(sseChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }));
  write(sseChunk({}, finish));
  write('data: [DONE]\n\n');
};

const SCRIPTS: Record<string, Script> = {
  'stop-json': async (write) => write(completion({ content: null, tool_calls: [CALL] }, 'stop')),
  'preface-json': async (write) => write(completion({ content: 'Let me check.', tool_calls: [CALL] }, 'tool_calls')),
  'function-json': async (write) => write(completion({ content: null, function_call: CALL.function }, 'function_call')),
  'stop-stream': streamedCall('stop'),
  'preface-stream': streamedCall('tool_calls', 'Let me check.'),
};

describe('a tool call through a role with checks', () => {
  let h: Harness;
  let upstream: ScriptedUpstream;
  before(async () => {
    upstream = await startScriptedUpstream(SCRIPTS);
    const models = Object.keys(SCRIPTS).map((m) => `  ${m}: { provider: scripted, model: ${m} }`).join('\n');
    // Every check a role can have that reads text; the hold-back window is longer than any call.
    const checks = 'checks: [nonempty, refusal, language, encoding, repetition, prefix, minlen], minLength: 40';
    const roles = Object.keys(SCRIPTS).flatMap((m) => [`  gated-${m}: { tier: degrade, models: [${m}], ${checks} }`, `  held-${m}: { tier: degrade, models: [${m}], ${checks}, holdBack: { chars: 200, ms: 30s } }`]).join('\n');
    h = await startHarness({
      configYaml: (fleet) => gatewayConfigYaml(fleet, roles).replace('models:', `  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }\nmodels:\n${models}`),
    });
  });
  after(async () => {
    try {
      assert.doesNotMatch(await metricsText(h.url), /warden_quality_failures_total\{/, 'no tool call failed a check');
    } finally {
      await h.close();
      await upstream.close();
    }
  });

  for (const script of ['stop-json', 'preface-json']) {
    test(`not streamed (${script}): the client gets the call the upstream sent`, async () => {
      const { data, response } = await h.client.chat.completions.create({ model: `gated-${script}`, messages: ASK, tools: TOOLS }).withResponse();
      assert.equal(response.headers.get('x-warden-attempts'), '1');
      assert.equal(response.headers.get('x-warden-fallback'), null);
      assert.deepEqual(data.choices[0]?.message.tool_calls, [CALL]);
    });
  }

  test('not streamed, the legacy function_call: passed as sent', async () => {
    const data = await h.client.chat.completions.create({ model: 'gated-function-json', messages: ASK, tools: TOOLS });
    assert.deepEqual(data.choices[0]?.message.function_call, CALL.function);
    assert.equal(data.choices[0]?.finish_reason, 'function_call');
  });

  for (const script of ['stop-stream', 'preface-stream']) {
    for (const role of ['gated', 'held']) {
      test(`streamed (${script}, ${role}): the client assembles the call's id and arguments`, async () => {
        const stream = h.client.chat.completions.stream({ model: `${role}-${script}`, messages: ASK, tools: TOOLS });
        const final = await stream.finalChatCompletion();
        const call = final.choices[0]?.message.tool_calls?.[0];
        assert.equal(call?.id, CALL.id);
        assert.equal(call?.type === 'function' ? call.function.arguments : null, CALL.function.arguments);
        // Committed at its first delta, a stream is judged after the fact: no failure recorded either.
        assert.doesNotMatch(await metricsText(h.url), new RegExp(`warden_quality_failures_total\\{role="${role}-${script}"`));
      });
    }
  }
});
