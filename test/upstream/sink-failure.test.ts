// What the exchange's sink throws (writing the client's answer, Warden's own code) ends the
// exchange as Warden's failure — kind `internal`, the thrown error kept as its cause — and never
// as the upstream's: left to undici, such a throw came back looking like a lost connection and
// fed the route's breaker. Real sockets: undici's Pool against a scripted upstream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Pool } from 'undici';
import { Exchange, type ExchangeSink, type UpstreamFailure } from '../../src/upstream/index.js';
import { sseChunk, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';

type Stage = 'onResponse' | 'onData' | 'onEnd';

/** A sink that throws at `stage` and resolves with what the exchange reported through onError. */
function throwingSink(stage: Stage, thrown: Error, onData: () => void): { sink: ExchangeSink; reported: Promise<UpstreamFailure[]> } {
  const failures: UpstreamFailure[] = [];
  let settle!: (value: UpstreamFailure[]) => void;
  const reported = new Promise<UpstreamFailure[]>((resolve) => (settle = resolve));
  const at = (here: Stage) => {
    if (here === stage) throw thrown;
  };
  const sink: ExchangeSink = {
    onResponse: () => at('onResponse'),
    onData: () => {
      at('onData');
      onData();
    },
    onEnd: () => {
      at('onEnd');
      settle(failures);
    },
    onError: (failure) => {
      failures.push(failure);
      // A second report would arrive in the same turn; the next macrotask sees them all.
      setImmediate(() => settle(failures));
    },
  };
  return { sink, reported };
}

describe('a sink that throws', () => {
  let upstream: ScriptedUpstream;
  let pool: Pool;
  before(async () => {
    upstream = await startScriptedUpstream({
      answer: async (write, step) => {
        write(sseChunk({ role: 'assistant', content: 'Hello' }));
        await step();
        write(sseChunk({}, 'stop') + 'data: [DONE]\n\n');
      },
    });
    pool = new Pool(new URL(upstream.baseUrl).origin);
  });
  after(async () => {
    await pool.close();
    await upstream.close();
  });

  for (const stage of ['onResponse', 'onData', 'onEnd'] as const) {
    test(`in ${stage}: one internal failure with the thrown error as its cause, not the upstream's`, async () => {
      const thrown = Object.assign(new TypeError('Invalid character in header content ["x-warden-route"]'), { code: 'ERR_INVALID_CHAR' });
      // The script waits after its first chunk; the rest is let go once that chunk is read.
      const { sink, reported } = throwingSink(stage, thrown, () => upstream.go());
      // Whether the upstream got to finish its response, as the upstream saw it.
      const upstreamFinished = new Promise<boolean>((resolve) => upstream.server.once('request', (_req, res) => res.on('close', () => resolve(res.writableFinished))));
      new Exchange(
        { dispatcher: pool, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: '{"model":"answer"}', firstByteTimeoutMs: 5_000, totalTimeoutMs: 10_000, firstTokenTimeoutMs: null },
        sink,
      );
      const failures = await reported;
      assert.equal(failures.length, 1, 'reported once');
      assert.deepEqual([failures[0]!.kind, failures[0]!.code], ['internal', 'gateway_internal_error']);
      assert.equal(failures[0]!.cause, thrown);
      assert.match(failures[0]!.message, /ERR_INVALID_CHAR/);
      // Before the end, the upstream is cut off at once rather than read to its end.
      assert.equal(await upstreamFinished, stage === 'onEnd');
      if (stage !== 'onEnd') upstream.go();
    });
  }
});
