// Client process for counted load: a keep-alive pool of N connections kept for the whole run.
// Each stdin line holding a number K sends K requests, N at a time, and answers with one JSON
// line once all have been read to the end. Counted rather than timed: the instruction count
// (bench/instructions.ts) compares targets per request, so each must serve the same requests.
//   node dist/bench/overhead/clients/counted.js --url URL --body JSON [--connections N]   (then "K\n" on stdin)
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({ options: { url: { type: 'string' }, body: { type: 'string' }, connections: { type: 'string', default: '10' } } });
const connections = Number(values.connections);
if (!values.url || !values.body || !Number.isInteger(connections) || connections < 1) {
  process.stderr.write('usage: counted --url URL --body JSON [--connections N], then a count per stdin line\n');
  process.exit(64);
}
const url = new URL(values.url);
const body = values.body;
// Long timeouts: a target under valgrind answers a hundred times slower than on its own.
const pool = new Pool(url.origin, { connections, keepAliveTimeout: 600_000, headersTimeout: 120_000, bodyTimeout: 120_000 });

async function send(count: number): Promise<{ ok: number; failed: number; firstError: string | null }> {
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async () => {
    while (sent < count) {
      sent++;
      try {
        const res = await pool.request({ method: 'POST', path: url.pathname, headers: { 'content-type': 'application/json' }, body });
        await res.body.arrayBuffer();
        if (res.statusCode === 200) ok++;
        else throw new Error(`status ${res.statusCode}`);
      } catch (e) {
        failed++;
        firstError ??= (e as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { ok, failed, firstError };
}

for await (const line of createInterface({ input: process.stdin })) {
  const count = Number(line.trim());
  const answer = Number.isInteger(count) && count > 0 ? await send(count) : { ok: 0, failed: 1, firstError: `bad count "${line}"` };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await pool.close();
