// A gate in front of an upstream (the simulated fleet): everything passes through unchanged
// until the test closes it; from then on each chat completion is held, unanswered, until the
// test opens it again. A test can so stop a canary round between sending its probes and
// judging them, act meanwhile (a reload, a second round), and let the round go on.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  /** Sends what comes in to `target` (the fleet's openrouterBaseUrl, say); answers the gate's URL to use in its place. */
  to(target: string): string;
  /** Chat completions held now. */
  readonly held: number;
  /** Holds every chat completion that arrives from now on. */
  close(): void;
  /** Lets the held requests (and every later one) through. */
  open(): void;
  stop(): Promise<void>;
}

export function startGate(): Promise<Gate> {
  let upstream: URL | null = null;
  let closed = false;
  const waiting: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = () => {
        if (!upstream) return void res.writeHead(502).end('the gate has no upstream yet');
        const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        res.on('close', () => out.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (closed && req.url?.endsWith('/chat/completions')) waiting.push(forward);
      else forward();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        to(target) {
          upstream = new URL(target);
          return `http://127.0.0.1:${port}${upstream.pathname}`;
        },
        get held() {
          return waiting.length;
        },
        close: () => void (closed = true),
        open() {
          closed = false;
          for (const forward of waiting.splice(0)) forward();
        },
        stop() {
          for (const forward of waiting.splice(0)) forward();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}
