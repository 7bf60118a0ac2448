// Endpoint names are the upstream's text, not Warden's: an aggregator may list and answer with
// a name holding a line break or written in another script. Such an answer must still reach
// the client, with the name escaped in the x-warden-* headers and no header smuggled in.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/harness.js';

const HELLO = [{ role: 'user' as const, content: 'Hello! How are you today?' }];
const SPLIT = 'Evil\r\nSet-Cookie: pwn=1';
const HAN = '智谱';
const LATIN1 = 'Zürich';

describe('endpoint names an upstream writes', () => {
  let h: Harness;
  before(async () => {
    const providers = Object.fromEntries([SPLIT, HAN, LATIN1, 'Plain'].map((name) => [name, { models: ['deepseek/deepseek-chat'] }]));
    h = await startHarness({
      scenario: { seed: 3, providers },
      configYaml: (fleet) => `
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: deepseek/deepseek-chat, routes: discover }
roles:
  chat: { tier: degrade, models: [chat-main], checks: [nonempty], maxFallbacks: 3 }
`,
    });
  });
  after(() => h.close());
  beforeEach(() => h.fleet.reset());

  for (const [name, escaped] of [
    [SPLIT, 'Evil\\u000d\\u000aSet-Cookie: pwn=1'],
    [HAN, '\\u667a\\u8c31'],
    [LATIN1, 'Z\\u00fcrich'],
  ] as const) {
    test(`an answer served by ${JSON.stringify(name)} arrives, its route escaped in x-warden-route`, async () => {
      const model = `chat-main@openrouter/${name}`;
      const { data, response } = await h.client.chat.completions.create({ model, messages: HELLO }).withResponse();
      assert.ok(data.choices[0]!.message.content);
      assert.equal(response.headers.get('x-warden-route'), `chat-main@openrouter/${escaped}`);
      assert.equal(response.headers.get('set-cookie'), null);

      const { data: stream, response: streamed } = await h.client.chat.completions.create({ model, messages: HELLO, stream: true }).withResponse();
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      assert.ok(text.length > 0, 'the stream carried the answer, not an error event');
      assert.equal(streamed.headers.get('x-warden-route'), `chat-main@openrouter/${escaped}`);
      assert.equal(streamed.headers.get('set-cookie'), null);
    });
  }

  test('a fallback away from such an endpoint names it escaped in x-warden-fallback', async () => {
    // The scenario's first provider serves a role's request first (ordered balancing); its
    // empty answer fails the role's nonempty check and the request moves on.
    h.fleet.setFaults(SPLIT, { empty: 1 });
    const { data, response } = await h.client.chat.completions.create({ model: 'chat', messages: HELLO }).withResponse();
    assert.ok(data.choices[0]!.message.content);
    assert.match(response.headers.get('x-warden-fallback') ?? '', /^quality:\w+ at chat-main@openrouter\/Evil\\u000d\\u000aSet-Cookie: pwn=1$/);
    assert.equal(response.headers.get('set-cookie'), null);
  });
});
