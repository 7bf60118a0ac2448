// What node:http decides on its own at the edge, on raw sockets: a request that arrives too
// slowly (a trickled body, headers that never end), an HTTP/1.1 request without Host, an
// Expect header. Each refusal carries the OpenAI error shape; Expect: 100-continue still works.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/telemetry/index.js';
import { gatewayConfigYaml, startHarness, type Harness } from '../helpers/harness.js';

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** The first answer in `text`: its status line's code, its head and its body (by content-length). */
function firstAnswer(text: string): RawAnswer | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const head = text.slice(0, end);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  const body = text.slice(end + 4, end + 4 + length);
  if (Buffer.byteLength(body) < length) return null;
  return { status: Number(head.split(' ')[1]), head, body };
}

/** Opens a raw connection to the gateway, hands it to `talk`, and resolves with everything it was sent until it closed. */
function rawExchange(url: string, talk: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => talk(socket));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(text) : reject(e)));
  });
}

const errorOf = (answer: RawAnswer) => (JSON.parse(answer.body) as { error: { message: string; type: string; code: string; param: string | null } }).error;

const BODY = JSON.stringify({ model: 'chat-small', messages: [{ role: 'user', content: 'Hello there' }] });

describe('the HTTP edge', () => {
  let h: Harness;
  /** What the gateway logged at warn and above: a refusal at the edge is no failure of Warden's. */
  const warnings: Array<{ level: number; msg: string }> = [];
  const withLimits = (limits: string) => gatewayConfigYaml(h.fleet).replace('providers:', `server: ${limits}\nproviders:`);
  before(async () => {
    // Short limits so a slow request is refused within the test; the checks look every 50 ms.
    const destination = new Writable({
      write(chunk, _encoding, done) {
        warnings.push(JSON.parse(String(chunk)) as { level: number; msg: string });
        done();
      },
    });
    h = await startHarness({
      configYaml: (fleet) => gatewayConfigYaml(fleet).replace('providers:', 'server: { requestTimeout: 400ms, headersTimeout: 200ms }\nproviders:'),
      log: createLogger({ level: 'warn', destination }),
    });
  });
  after(async () => {
    await h.close();
    assert.deepEqual(warnings.filter((w) => w.level >= 50), [], 'no error was logged');
  });

  test('a trickled body is refused with an OpenAI-shaped 408 request_timeout', async () => {
    let trickle: NodeJS.Timeout | undefined;
    const text = await rawExchange(h.url, (socket) => {
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`);
      // One byte at a time, never the whole body: a slowloris client.
      let sent = 0;
      trickle = setInterval(() => {
        if (sent < BODY.length - 1 && socket.writable) socket.write(BODY[sent++]!);
      }, 20);
    }).finally(() => clearInterval(trickle));
    const answer = firstAnswer(text);
    assert.ok(answer, `an answer came: ${JSON.stringify(text)}`);
    assert.equal(answer.status, 408);
    assert.match(answer.head, /content-type: application\/json/i);
    assert.deepEqual([errorOf(answer).type, errorOf(answer).code], ['invalid_request_error', 'request_timeout']);
    // The gateway serves on.
    assert.equal((await fetch(`${h.url}/healthz`)).status, 200);
  });

  test('the limit is on receiving the request, not on the answer: a stream runs on well past it', async () => {
    // The slow model streams 20 tokens a second: 16 of them take about twice the 400 ms limit,
    // while node:http looks for late requests every 50 ms. A limit applied to the answer would cut it.
    const stream = await h.client.chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'Hello there' }], stream: true });
    let pieces = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) pieces += 1;
      if (pieces === 16) break;
    }
    assert.equal(pieces, 16);
  });

  test('headers that never end are refused with the same 408', async () => {
    const text = await rawExchange(h.url, (socket) => socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    const answer = firstAnswer(text);
    assert.ok(answer, `an answer came: ${JSON.stringify(text)}`);
    assert.equal(answer.status, 408);
    assert.equal(errorOf(answer).code, 'request_timeout');
  });

  test('an HTTP/1.1 request without Host is an OpenAI-shaped 400 naming the header', async () => {
    const text = await rawExchange(h.url, (socket) => socket.write(`POST /v1/chat/completions HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`));
    const answer = firstAnswer(text);
    assert.ok(answer, `an answer came: ${JSON.stringify(text)}`);
    assert.equal(answer.status, 400);
    assert.equal(errorOf(answer).code, 'missing_host_header');
    assert.match(errorOf(answer).message, /Host header/);
    assert.equal(h.fleet.stats().providers.small?.requests ?? 0, 0, 'nothing went upstream');
  });

  test('an HTTP/1.0 request without Host is served (Host is optional there)', async () => {
    const text = await rawExchange(h.url, (socket) => socket.write('GET /healthz HTTP/1.0\r\n\r\n'));
    assert.equal(firstAnswer(text)?.status, 200);
  });

  test('an Expect other than 100-continue is an OpenAI-shaped 417 naming it', async () => {
    const text = await rawExchange(h.url, (socket) => socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`));
    const answer = firstAnswer(text);
    assert.ok(answer, `an answer came: ${JSON.stringify(text)}`);
    assert.equal(answer.status, 417);
    assert.deepEqual([errorOf(answer).type, errorOf(answer).code], ['invalid_request_error', 'expectation_failed']);
    assert.match(errorOf(answer).message, /"200-ok"/);
  });

  test('Expect: 100-continue on the chat path gets 100 Continue, then the answer to the body sent after it', async () => {
    const text = await rawExchange(h.url, (socket) => {
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`);
      // The body goes only once the server asked for it.
      let asked = false;
      socket.on('data', (chunk) => {
        if (!asked && chunk.toString().startsWith('HTTP/1.1 100 Continue\r\n')) {
          asked = true;
          socket.write(BODY);
        }
      });
    });
    assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
    const answer = firstAnswer(text.slice(text.indexOf('\r\n\r\n') + 4));
    assert.ok(answer, `an answer came: ${JSON.stringify(text)}`);
    assert.equal(answer.status, 200);
    const completion = JSON.parse(answer.body) as { choices: Array<{ message: { content: string } }> };
    assert.ok(completion.choices[0]!.message.content);
  });

  test('a reload changes the receive limits for the requests that come after it', async () => {
    const raised = h.gateway.reload(() => parseConfig(withLimits('{ requestTimeout: 10m, headersTimeout: 5m }'), 'reloaded', {}), 'test');
    assert.deepEqual([raised.ok, raised.applied, raised.restartNeeded], [true, ['server.requestTimeout', 'server.headersTimeout'], []]);
    assert.deepEqual([h.gateway.server.requestTimeout, h.gateway.server.headersTimeout], [600_000, 300_000], 'node:http reads these at each look');
    // Back down, with something else of the server's changed: that part alone waits for a restart.
    const lowered = h.gateway.reload(() => parseConfig(withLimits('{ requestTimeout: 300ms, headersTimeout: 150ms, bodyLimit: 4096 }'), 'reloaded', {}), 'test');
    assert.deepEqual([lowered.ok, lowered.applied, lowered.restartNeeded], [true, ['server.requestTimeout', 'server.headersTimeout'], ['server']]);
    assert.equal(h.gateway.config.server.bodyLimit, 4 * 1024 * 1024, 'the body limit keeps its running value');
    const text = await rawExchange(h.url, (socket) => socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    assert.equal(firstAnswer(text)?.status, 408);
  });
});
