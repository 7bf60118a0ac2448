// Hostile request bodies: each gets an OpenAI-shaped 400 naming the field at fault, never a
// 500, and the gateway serves the next request as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING } from '../../src/protocol/body.js';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';

const HELLO = [{ role: 'user' as const, content: 'Hello! How are you today?' }];

interface ErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null };
}

/** Hand-written bytes: what an SDK would never send (its own serialiser would choke first). */
async function postRaw(url: string, body: string): Promise<{ status: number; body: ErrorBody }> {
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as ErrorBody };
}

/** `levels` nested arrays around nothing: `[[[…]]]`. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

function assertRefused(r: { status: number; body: ErrorBody }, param: string, message: RegExp): void {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error.type, 'invalid_request_error');
  assert.equal(r.body.error.param, param);
  assert.match(r.body.error.message, message);
}

describe('hostile request bodies', () => {
  let h: Harness;
  before(async () => {
    // A blocked endpoint makes every attempt reshape (and so re-serialise) the body.
    h = await startHarness({ configYaml: (fleet) => gatewayConfigYaml(fleet, 'blocklist:\n  - { route: chat-main@openrouter/Alpha, reason: test }') });
  });
  after(() => h.close());

  test('a body nested thousands of levels deep is a 400 naming the field, not a stack overflow', async () => {
    const deepField = await postRaw(h.url, `{"model":"chat","messages":${JSON.stringify(HELLO)},"x_extra":${nested(20_000)}}`);
    assertRefused(deepField, 'x_extra', new RegExp(`"x_extra" is nested more than ${MAX_NESTING} levels deep`));
    const deepMessage = await postRaw(h.url, `{"model":"chat","messages":[{"role":"user","content":"hi","x":${nested(20_000)}}]}`);
    assertRefused(deepMessage, 'messages', /nested more than/);
    // Exactly at the limit (the body itself is one level) is still served.
    const atLimit = await h.client.chat.completions.create({ model: 'chat', messages: HELLO, x_extra: JSON.parse(nested(MAX_NESTING - 1)) } as never);
    assert.ok(atLimit.choices[0]!.message.content);
  });

  test('message content of the wrong type is a 400 naming the message, the part or the field', async () => {
    const send = (body: Record<string, unknown>) => postRaw(h.url, JSON.stringify({ model: 'chat', ...body }));
    const withContent = (content: unknown) => send({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] });
    assertRefused(await withContent([{ type: 'text', text: 'Hello' }, null]), 'messages[1].content[1]', /content part object/);
    assertRefused(await withContent(['Hello']), 'messages[1].content[0]', /content part object/);
    assertRefused(await withContent(5), 'messages[1].content', /string or an array of content parts/);
    assertRefused(await withContent({ text: 'Hello' }), 'messages[1].content', /string or an array of content parts/);
    assertRefused(await send({ messages: HELLO, tools: 'search' }), 'tools', /array of tool definitions/);
    assertRefused(await send({ messages: HELLO, reasoning: 'high' }), 'reasoning', /object of reasoning settings/);
    // Parts, a null content (an assistant's tool call) and null optional fields still pass.
    const parts = await h.client.chat.completions.create({ model: 'chat', messages: [{ role: 'assistant', content: null }, { role: 'user', content: [{ type: 'text', text: 'Hello! How are you today?' }] }], tools: null, reasoning: null } as never);
    assert.ok((parts as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content);
  });
});
