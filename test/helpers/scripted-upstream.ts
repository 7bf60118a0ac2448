// An OpenAI-compatible upstream playing one script per upstream model name, for what the
// simulated fleet does not do on purpose (an event cut between chunks, an endpoint name no
// provider would have). Scripts that wait go on only when the test calls go(): what the client
// already has then was relayed before the upstream wrote the rest. A script that throws drops
// the connection.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Script = (write: (s: string) => void, step: () => Promise<void>) => Promise<void>;

export interface ScriptedUpstream {
  server: Server;
  /** `http://127.0.0.1:<port>/v1`, for a provider's baseUrl. */
  baseUrl: string;
  /** Lets the waiting script write its next part. */
  go(): void;
  close(): Promise<void>;
}

/** One SSE chunk of a chat completion stream; `extra` adds top-level fields (OpenRouter's `provider`). */
export const sseChunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...extra, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export function startScriptedUpstream(scripts: Record<string, Script>): Promise<ScriptedUpstream> {
  const waiting: Array<() => void> = [];
  const step = () => new Promise<void>((resolve) => waiting.push(resolve));
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part));
    req.on('end', () => {
      const script = scripts[(JSON.parse(body) as { model: string }).model]!;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      script((s) => res.write(s), step).then(() => res.end(), (e: unknown) => res.destroy(e as Error));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        go: () => waiting.shift()?.(),
        close() {
          while (waiting.length > 0) waiting.shift()!();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    ),
  );
}
