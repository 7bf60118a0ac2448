// Client process: opens N streaming requests at once and holds them while the orchestrator
// samples the proxy's memory. Protocol on stdout/stdin, one line each:
//   → `ready <open> <failed>` once every stream has its first content (or the deadline passed)
//   ← `release`               aborts them all
//   → `released`              when every request has settled
//   node dist/bench/overhead/clients/hold-streams.js --url URL --body JSON --count N [--timeout S]
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { FirstContent } from './first-content.js';

const { values } = parseArgs({
  options: { url: { type: 'string' }, body: { type: 'string' }, count: { type: 'string' }, timeout: { type: 'string', default: '120' } },
});
if (!values.url || !values.body || !values.count) {
  process.stderr.write('usage: hold-streams --url URL --body JSON --count N [--timeout S]\n');
  process.exit(64);
}
const url = new URL(values.url);
const body = values.body;
const count = Number(values.count);
const deadline = Date.now() + Number(values.timeout) * 1000;
/** Streams are opened in waves so the listen backlog never overflows into 1 s SYN retries. */
const WAVE = 250;

// One connection per stream: a held SSE response occupies its connection until aborted.
const pool = new Pool(url.origin, { connections: count, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 0 });
const abort = new AbortController();
let failed = 0;
let firstError: string | null = null;

/** Resolves when the stream shows its first content (true) or fails (false); keeps reading after. */
function hold(): Promise<boolean> {
  return new Promise((resolve) => {
    pool
      .request({ method: 'POST', path: url.pathname, headers: { 'content-type': 'application/json' }, body, signal: abort.signal })
      .then(async (res) => {
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
        const detector = new FirstContent();
        for await (const chunk of res.body) {
          if (detector.push(chunk as Buffer)) resolve(true);
        }
        throw new Error('stream ended while it was meant to be held');
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) {
          failed++;
          firstError ??= (e as Error).message;
        }
        resolve(false);
      });
  });
}

const settled: Array<Promise<boolean>> = [];
let open = 0;
for (let started = 0; started < count && Date.now() < deadline; started += WAVE) {
  const wave = Array.from({ length: Math.min(WAVE, count - started) }, hold);
  settled.push(...wave);
  const left = Math.max(0, deadline - Date.now());
  const results = await Promise.race([Promise.all(wave), new Promise<null>((r) => setTimeout(() => r(null), left).unref())]);
  if (results === null) break;
  open += results.filter(Boolean).length;
}
process.stdout.write(`ready ${open} ${failed}${firstError ? ` ${firstError}` : ''}\n`);

const lines = createInterface({ input: process.stdin });
const release = async () => {
  abort.abort();
  // Bounded: every request settles on abort; the timer only guards against a stuck one.
  await Promise.race([Promise.allSettled(settled), new Promise((r) => setTimeout(r, 10_000).unref())]);
  await pool.destroy().catch(() => undefined);
  process.stdout.write('released\n');
  process.exit(0);
};
lines.on('line', (line) => {
  if (line.trim() === 'release') void release();
});
lines.on('close', () => void release());
