// Structured outputs: a model that declines answers `content: null` with its `refusal` field
// (streamed: `delta.refusal` pieces). That is a refusal, not an empty answer: the `refusal`
// check fails it (and the role falls back, as for a refusal written as content), while a role
// that does not check refusals passes it to the client untouched instead of failing it as
// `empty`. The upstream plays exact wire scripts; the official openai client reads the gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';
import { sseChunk, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const ASK = [{ role: 'user' as const, content: 'Describe the person in this record as JSON.' }];
const FORMAT = { type: 'json_schema' as const, json_schema: { name: 'person', strict: true, schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } } };
const REFUSAL = 'I am unable to provide that information.';

describe('the refusal field of structured outputs', () => {
  let h: Harness;
  let upstream: ScriptedUpstream;
  before(async () => {
    upstream = await startScriptedUpstream({
      'declines-json': async (write) =>
        write(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: REFUSAL }, finish_reason: 'stop' }] })),
      'declines-stream': async (write) => {
        write(sseChunk({ role: 'assistant', content: null, refusal: '' }));
        write(sseChunk({ refusal: 'I am unable ' }));
        write(sseChunk({ refusal: 'to provide that information.' }));
        write(sseChunk({}, 'stop'));
        write('data: [DONE]\n\n');
      },
    });
    const roles = ['declines-json', 'declines-stream']
      .flatMap((m) => [
        `  passes-${m}: { tier: degrade, models: [${m}], checks: [nonempty, language], holdBack: { chars: 200, ms: 30s } }`,
        `  checked-${m}: { tier: degrade, models: [${m}, chat-small], checks: [nonempty, refusal], holdBack: { chars: 200, ms: 30s } }`,
      ])
      .join('\n');
    h = await startHarness({
      configYaml: (fleet) =>
        gatewayConfigYaml(fleet, roles).replace('models:', `  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }\nmodels:\n  declines-json: { provider: scripted, model: declines-json }\n  declines-stream: { provider: scripted, model: declines-stream }`),
    });
  });
  after(async () => {
    await h.close();
    await upstream.close();
  });

  test('not streamed, a role without the refusal check: the client gets the refusal, not a 503 for an empty answer', async () => {
    const { data, response } = await h.client.chat.completions.create({ model: 'passes-declines-json', messages: ASK, response_format: FORMAT }).withResponse();
    assert.equal(response.headers.get('x-warden-fallback'), null);
    assert.equal(data.choices[0]?.message.refusal, REFUSAL);
    assert.equal(data.choices[0]?.message.content, null);
  });

  test('streamed, a role without the refusal check: the client assembles the refusal', async () => {
    const stream = h.client.chat.completions.stream({ model: 'passes-declines-stream', messages: ASK, response_format: FORMAT });
    const final = await stream.finalChatCompletion();
    assert.equal(final.choices[0]?.message.refusal, REFUSAL);
  });

  for (const [script, stream] of [['declines-json', false], ['declines-stream', true]] as const) {
    test(`${stream ? 'streamed' : 'not streamed'}, a role with the refusal check: it fails as refusal_field and the next model answers`, async () => {
      const { response } = await h.client.chat.completions.create({ model: `checked-${script}`, messages: ASK, stream }).withResponse();
      assert.equal(response.headers.get('x-warden-route'), 'chat-small@direct');
      assert.equal(response.headers.get('x-warden-fallback'), `quality:refusal_field at ${script}@scripted`);
    });
  }
});
