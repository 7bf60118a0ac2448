// Client process: N sequential streaming requests over one keep-alive connection, each timed
// from request start to its first content event. Prints one JSON line with the samples.
//   node dist/bench/overhead/clients/first-token.js --url URL --body JSON --count N
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { FirstContent } from './first-content.js';

const { values } = parseArgs({ options: { url: { type: 'string' }, body: { type: 'string' }, count: { type: 'string', default: '1000' } } });
if (!values.url || !values.body) {
  process.stderr.write('usage: first-token --url URL --body JSON [--count N]\n');
  process.exit(64);
}
const url = new URL(values.url);
const body = values.body;
const count = Number(values.count);
const client = new Client(url.origin, { headersTimeout: 10_000, bodyTimeout: 10_000 });

const samples: number[] = [];
let errors = 0;
let firstError: string | null = null;

for (let i = 0; i < count; i++) {
  const started = performance.now();
  try {
    const res = await client.request({ method: 'POST', path: url.pathname, headers: { 'content-type': 'application/json' }, body });
    const detector = new FirstContent();
    let at: number | null = null;
    // Read to the end either way: the next request reuses this connection.
    for await (const chunk of res.body) {
      if (detector.push(chunk as Buffer)) at = performance.now();
    }
    if (res.statusCode !== 200 || at === null) throw new Error(`status ${res.statusCode}, content seen: ${at !== null}`);
    samples.push(at - started);
  } catch (e) {
    errors++;
    firstError ??= (e as Error).message;
    // Many failures in a row means the target is broken, not slow: stop early, bounded.
    if (errors > 20 && samples.length === 0) break;
  }
}
await client.close();
process.stdout.write(`${JSON.stringify({ samples, errors, firstError })}\n`);
