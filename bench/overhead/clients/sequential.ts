// Client process for sequential latency: one keep-alive connection kept for the whole phase.
// Each stdin line holding a number N runs N requests one after another and answers with one
// JSON line of samples. `--until first-content` times a streaming request from its start to
// its first content event (first-token latency); `--until answer` times a request to the end
// of its answer (latency on an idle connection, no queueing). The orchestrator alternates
// targets in short turns (freezing the other proxies meanwhile), so the client stays up
// between turns: no process start or new connection inside a turn.
//   node dist/bench/overhead/clients/sequential.js --url URL --body JSON --until first-content|answer   (then "N\n" on stdin)
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { FirstContent } from './first-content.js';

const { values } = parseArgs({ options: { url: { type: 'string' }, body: { type: 'string' }, until: { type: 'string', default: 'first-content' } } });
if (!values.url || !values.body || (values.until !== 'first-content' && values.until !== 'answer')) {
  process.stderr.write('usage: sequential --url URL --body JSON --until first-content|answer, then a count per stdin line\n');
  process.exit(64);
}
const url = new URL(values.url);
const body = values.body;
const untilAnswer = values.until === 'answer';
const client = new Client(url.origin, { headersTimeout: 10_000, bodyTimeout: 10_000, keepAliveTimeout: 600_000 });

async function turn(count: number): Promise<{ samples: number[]; errors: number; firstError: string | null }> {
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    try {
      const res = await client.request({ method: 'POST', path: url.pathname, headers: { 'content-type': 'application/json' }, body });
      const detector = untilAnswer ? null : new FirstContent();
      let at: number | null = null;
      // Read to the end either way: the next request reuses this connection.
      for await (const chunk of res.body) {
        if (detector?.push(chunk as Buffer)) at = performance.now();
      }
      if (untilAnswer) at = performance.now();
      if (res.statusCode !== 200 || at === null) throw new Error(`status ${res.statusCode}, content seen: ${at !== null}`);
      samples.push(at - started);
    } catch (e) {
      errors++;
      firstError ??= (e as Error).message;
      // Many failures in a row means the target is broken, not slow: stop early, bounded.
      if (errors > 20 && samples.length === 0) break;
    }
  }
  return { samples, errors, firstError };
}

// One turn at a time, in order: the orchestrator waits for each answer before the next line.
for await (const line of createInterface({ input: process.stdin })) {
  const count = Number(line.trim());
  if (!Number.isInteger(count) || count < 1) {
    process.stdout.write(`${JSON.stringify({ samples: [], errors: 1, firstError: `bad turn size "${line}"` })}\n`);
    continue;
  }
  process.stdout.write(`${JSON.stringify(await turn(count))}\n`);
}
await client.close();
