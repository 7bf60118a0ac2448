// Upstreams frame server-sent events with LF or CRLF blank lines. The simulated fleet writes
// LF; this upstream writes CRLF, one write per event, so every chunk the gateway reads ends
// exactly on a boundary (a reader that kept a stale boundary position there produced phantom
// events and, collecting a whole stream, never stopped).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';

const WORDS = ['The ', 'weather ', 'is ', 'mild ', 'today, ', 'with ', 'a ', 'light ', 'breeze ', 'from ', 'the ', 'west ', 'and ', 'clear ', 'skies ', 'all ', 'afternoon.'];

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\r\n\r\n`;
}

/** An OpenAI-compatible upstream that streams with CRLF framing, one event per write. */
function startCrlfUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = [chunk({ role: 'assistant', content: '' }), ...WORDS.map((w) => chunk({ content: w })), chunk({}, 'stop'), 'data: [DONE]\r\n\r\n'];
      let i = 0;
      const next = () => {
        if (i === events.length) return void res.end();
        res.write(events[i++]);
        setImmediate(next);
      };
      next();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('CRLF-framed upstream streams', () => {
  let upstream: Server;
  let h: Harness;
  before(async () => {
    upstream = await startCrlfUpstream();
    const port = (upstream.address() as AddressInfo).port;
    h = await startHarness({
      configYaml: () => `
providers:
  crlf: { kind: openai-compatible, baseUrl: "http://127.0.0.1:${port}/v1" }
models:
  crlf-model: { provider: crlf, model: m }
roles:
  checked: { tier: degrade, models: [crlf-model], checks: [nonempty, repetition, language] }
`,
    });
  });
  after(async () => {
    await h.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  for (const model of ['crlf-model', 'checked']) {
    test(`${model}: the whole answer arrives, in order, and the stream ends`, async () => {
      const stream = await h.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'How is the weather?' }], stream: true });
      let text = '';
      let finish: string | null = null;
      for await (const part of stream) {
        text += part.choices[0]?.delta?.content ?? '';
        finish = part.choices[0]?.finish_reason ?? finish;
      }
      assert.equal(text, WORDS.join(''));
      assert.equal(finish, 'stop');
    });
  }
});
