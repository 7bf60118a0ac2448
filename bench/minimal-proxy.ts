// The physical limit of a Node proxy on this machine: node:http in, one keep-alive undici
// Pool out, bytes relayed as they come, nothing parsed. Warden's overhead is measured against
// this, so it must stay as lean as a real proxy can be and no leaner.
//   node dist/bench/minimal-proxy.js --upstream http://127.0.0.1:P/p/bench/v1 --port N [--connections 256]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool, type Dispatcher } from 'undici';

/** The client's path prefix that maps onto the upstream base path (`/v1/x` → `<base>/x`). */
const CLIENT_PREFIX = '/v1';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string' },
    port: { type: 'string', default: '0' },
    connections: { type: 'string', default: '256' },
  },
});
if (!values.upstream) {
  process.stderr.write('usage: minimal-proxy --upstream URL [--port N] [--connections N]\n');
  process.exit(64);
}
const upstream = new URL(values.upstream);
const basePath = upstream.pathname.replace(/\/$/, '');
// dispatch() with a hand-written handler: FINDINGS measured stream()/dispatch() at about half
// the CPU of request() + pipeline(), and the handler gives the abort hook without an AbortController.
const pool = new Pool(upstream.origin, { connections: Number(values.connections), pipelining: 1, keepAliveTimeout: 30_000 });

/** Relays one upstream answer into the client response, with backpressure both ways. */
class Relay implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #done = false;

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => {
      // The client went away first: stop the upstream too, or a held stream leaks there.
      if (!this.#done) this.#controller?.abort(new Error('client closed'));
    });
    res.on('drain', () => this.#controller?.resume());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.res.destroyed) controller.abort(new Error('client closed'));
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    const out: Record<string, string> = {};
    const type = headers['content-type'];
    if (typeof type === 'string') out['content-type'] = type;
    const length = headers['content-length'];
    if (typeof length === 'string') out['content-length'] = length;
    this.res.writeHead(statusCode, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.res.write(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.#done = true;
    this.res.end();
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.#done = true;
    if (this.res.headersSent || this.res.destroyed) {
      this.res.destroy();
      return;
    }
    const body = JSON.stringify({ error: { message: `upstream: ${error.message}`, type: 'upstream_error' } });
    this.res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }
}

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer | null): void {
  const url = req.url ?? '/';
  const path = url.startsWith(CLIENT_PREFIX) ? basePath + url.slice(CLIENT_PREFIX.length) : basePath + url;
  const headers: Record<string, string> = {};
  const type = req.headers['content-type'];
  if (type) headers['content-type'] = type;
  pool.dispatch({ method: req.method ?? 'GET', path, headers, body }, new Relay(res));
}

const server = createServer((req, res) => {
  // Request bodies are small JSON: buffering them is cheaper than streaming them upstream.
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => forward(req, res, chunks.length === 0 ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`minimal proxy on http://127.0.0.1:${port} -> ${upstream.href}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  pool.destroy().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
