// A thinking model streams its reasoning (`reasoning_content`) before the answer. The reasoning
// shows the upstream alive: the first-token timeout does not cut a model that is thinking, and
// with no hold-back window the client sees the reasoning as it comes. A hold-back window still
// waits for the answer's own content and judges that. The official openai client reads the
// gateway; the upstream is a wire script (thinking, then a pause the test ends) or the seeded fleet.
// setTimeout is mocked (the first-token deadline and the fleet's thinking pause run on it): the
// test moves time past the deadline only once the gateway has the reasoning, so a loaded machine
// that takes longer than the deadline to deliver the reasoning cannot time the attempt out.
import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';
import { metricsText, seriesValue } from '../helpers/metrics.js';
import { sseChunk, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

const ASK = [{ role: 'user' as const, content: 'Why is the sky blue? Explain it simply.' }];
const ANSWER = 'Sunlight scatters off the air, and blue light scatters the most.';
/** Past the 200 ms first-token deadline and the thinker's 800 ms pause. */
const THINKING_MS = 1_000;

const SCENARIO = {
  seed: 5,
  providers: {
    // Thinks aloud at once, answers 800 ms later (on the mocked clock): past the 200 ms first-token timeout below.
    thinker: { models: ['thinker-model'], reasoning: true, firstTokenMs: 800 },
    stray: { models: ['stray-model'], reasoning: true, faults: { prefix: 1 } },
  },
};

describe('reasoning before the answer of a stream', () => {
  let h: Harness;
  let upstream: ScriptedUpstream;
  before(async () => {
    // Thinks, waits for the test's go(), then answers.
    upstream = await startScriptedUpstream({
      pondering: async (write, step) => {
        write(sseChunk({ role: 'assistant', content: '', reasoning_content: 'The user asks about Rayleigh scattering.' }));
        await step();
        write(sseChunk({ content: ANSWER }));
        write(sseChunk({}, 'stop'));
        write('data: [DONE]\n\n');
      },
    });
    h = await startHarness({
      scenario: SCENARIO,
      configYaml: (fleet) => `
providers:
  scripted: { kind: openai-compatible, baseUrl: "${upstream.baseUrl}" }
  thinker:  { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('thinker')}" }
  stray:    { kind: openai-compatible, baseUrl: "${fleet.providerBaseUrl('stray')}" }
timeouts: { firstToken: 200ms, total: 30s }
models:
  pondering: { provider: scripted, model: pondering }
  thinker:   { provider: thinker, model: thinker-model }
  stray:     { provider: stray, model: stray-model }
roles:
  musing: { tier: degrade, models: [pondering], thinking: on, checks: [nonempty] }
  held:   { tier: degrade, models: [thinker], thinking: on, checks: [nonempty, prefix], holdBack: { chars: 30, ms: 30s } }
  judged: { tier: degrade, models: [stray, thinker], thinking: on, checks: [prefix], holdBack: { chars: 30, ms: 30s } }
`,
    });
    mock.timers.enable({ apis: ['setTimeout'] });
  });
  after(async () => {
    mock.timers.reset();
    await h.close();
    await upstream.close();
  });

  /** Resolves once the gateway counted `route`'s first token for `role` (the reasoning); setImmediate and Date.now are not mocked. */
  const firstTokenCounted = async (role: string, route: string) => {
    const series = `warden_first_token_seconds_count{role="${role}",route="${route}"}`;
    for (const deadline = Date.now() + 10_000; seriesValue(await metricsText(h.url), series) === 0; ) {
      if (Date.now() > deadline) throw new Error(`the gateway never counted a first token for ${role} at ${route}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  test('no hold-back window: the client reads the reasoning while the model still thinks, then the answer', async () => {
    const stream = await h.client.chat.completions.create({ model: 'musing', messages: ASK, stream: true });
    const chunks = stream[Symbol.asyncIterator]();
    const first = await chunks.next();
    const delta = first.value?.choices[0]?.delta as { reasoning_content?: string } | undefined;
    assert.equal(delta?.reasoning_content, 'The user asks about Rayleigh scattering.');
    mock.timers.tick(THINKING_MS);
    upstream.go();
    let text = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) text += next.value.choices[0]?.delta?.content ?? '';
    assert.equal(text, ANSWER);
    const metrics = await metricsText(h.url);
    assert.equal(seriesValue(metrics, 'warden_first_token_seconds_count{role="musing",route="pondering@scripted"}'), 1);
  });

  test('a hold-back window: thinking past the first-token timeout is no timeout; the answer is held and judged', async () => {
    const asked = h.client.chat.completions.create({ model: 'held', messages: ASK, stream: true }).withResponse();
    await firstTokenCounted('held', 'thinker@thinker');
    mock.timers.tick(THINKING_MS);
    const { data, response } = await asked;
    let text = '';
    for await (const chunk of data) text += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
    assert.equal(response.headers.get('x-warden-attempts'), '1');
    const metrics = await metricsText(h.url);
    assert.equal(seriesValue(metrics, 'warden_first_token_seconds_count{role="held",route="thinker@thinker"}'), 1, 'one first token, at the reasoning');
  });

  test('a hold-back window judges the content, not the reasoning before it: a stray prefix still falls back', async () => {
    const asked = h.client.chat.completions.create({ model: 'judged', messages: ASK, stream: true }).withResponse();
    await firstTokenCounted('judged', 'thinker@thinker');
    mock.timers.tick(THINKING_MS);
    const { response } = await asked;
    assert.equal(response.headers.get('x-warden-route'), 'thinker@thinker');
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:.* at stray@stray$/);
  });
});
