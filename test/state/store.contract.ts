// The behaviour every Store owes its callers, run against each implementation. A store that
// persists passes `reopen`, and must then give back everything after a restart.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CanaryRouteState } from '../../src/canary/types.js';
import type { BreakerSnapshot } from '../../src/resilience/breaker.js';
import type { AuditEvent, LedgerEntry, RuntimeBlock, Store } from '../../src/state/index.js';

export interface ContractHarness<S extends Store> {
  make(): S;
  /** Closes the store and opens another over the same data, as a restart would. */
  reopen?(store: S): Promise<S>;
}

const T0 = 1_760_000_000_000;

export const OPEN_BREAKER: BreakerSnapshot = {
  state: 'open',
  consecutiveFailures: 5,
  level: 1,
  openedAt: T0,
  retryAt: T0 + 60_000,
  probeUntil: null,
  closedAt: T0 - 3_600_000,
  probes: 0,
  recent: [
    [T0 - 2_000, 0],
    [T0 - 1_000, 1],
    [T0, 1],
  ],
};

export const QUARANTINED: CanaryRouteState = {
  consecutiveFailedRounds: 3,
  consecutiveCleanRounds: 1,
  quarantine: { since: T0, until: T0 + 3 * 86_400_000, step: 1, reasons: ['language:mixed_language', 'prefix:stray_prefix'] },
  ladder: { lastStep: 0, lastEndedAt: T0 - 10 * 86_400_000 },
  wouldQuarantine: false,
  languageCursor: 2,
  retestLanguage: 'de',
  lastRound: {
    route: 'groq/llama-3.3-70b',
    at: T0,
    verdict: 'fail',
    reasons: ['language:mixed_language'],
    probes: [
      {
        kind: 'latency',
        language: null,
        verdict: 'pass',
        reason: 'ok',
        evidence: { firstTokenMs: 412 },
      },
      {
        kind: 'language',
        language: 'de',
        verdict: 'fail',
        reason: 'mixed_language',
        evidence: {
          snippet: 'Die Hauptstadt ist Berlin, which is also the largest city',
          languages: [
            { language: 'de', score: 0.55 },
            { language: 'en', score: 0.45 },
          ],
          confirmations: ['fail', 'fail', 'pass'],
        },
      },
      {
        kind: 'schema',
        language: null,
        verdict: 'pass',
        reason: 'ok',
        evidence: { parsed: { city: 'Berlin', population: 3_850_000 } },
        invalidated: true,
      },
    ],
  },
};

export function block(id: string, over: Partial<RuntimeBlock> = {}): RuntimeBlock {
  return { id, route: 'openrouter/qwen-2.5-72b', kind: 'block', reason: 'answers in Chinese', createdAt: T0, until: null, by: 'ops', ...over };
}

export function event(at: number, type: string, route: string | null, detail: Record<string, unknown> = {}): AuditEvent {
  return { at, type, route, detail };
}

export function entry(at: number, requestId: string, over: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    at,
    requestId,
    role: 'chat',
    primaryRoute: 'groq/llama-3.3-70b',
    reason: 'transport:upstream_error',
    finalRoute: 'openrouter/llama-3.3-70b',
    outcome: 'fallback',
    attempts: 2,
    latencyMs: 840,
    ...over,
  };
}

/** A mixed audit log: two routes, a route-less event, three types. */
const AUDIT: AuditEvent[] = [
  event(T0 + 1, 'breaker_open', 'a', { cause: '5 consecutive transport failures' }),
  event(T0 + 2, 'breaker_open', 'b', { cause: 'failure rate 60%' }),
  event(T0 + 3, 'canary_round', 'a', { verdict: 'fail', reasons: ['prefix:stray_prefix'] }),
  event(T0 + 4, 'config_reload', null, { ok: true }),
  event(T0 + 5, 'breaker_closed', 'a', { probes: 2, openMs: 61_000 }),
  event(T0 + 6, 'canary_round', 'b', { verdict: 'pass', nested: { list: [1, 'two', null] } }),
];

export function storeContract<S extends Store>(name: string, harness: ContractHarness<S>): void {
  describe(`Store contract: ${name}`, () => {
    const opened: Store[] = [];
    const make = (): S => {
      const store = harness.make();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    test('breakers round-trip per route; a put replaces', () => {
      const store = make();
      assert.equal(store.getBreaker('a'), undefined);
      store.putBreaker('a', OPEN_BREAKER);
      store.putBreaker('b', { ...OPEN_BREAKER, state: 'closed', recent: [] });
      assert.deepEqual(store.getBreaker('a'), OPEN_BREAKER);
      store.putBreaker('a', { ...OPEN_BREAKER, state: 'half_open', probeUntil: T0 + 90_000 });
      assert.equal(store.getBreaker('a')?.state, 'half_open');
      assert.equal(store.getBreaker('a')?.probeUntil, T0 + 90_000);
      assert.equal(store.getBreaker('b')?.state, 'closed');
    });

    test('canary states round-trip, and the listing is a copy', () => {
      const store = make();
      assert.equal(store.getCanaryState('groq/llama-3.3-70b'), undefined);
      store.putCanaryState('groq/llama-3.3-70b', QUARANTINED);
      store.putCanaryState('other', { ...QUARANTINED, quarantine: null, lastRound: null });
      assert.deepEqual(store.getCanaryState('groq/llama-3.3-70b'), QUARANTINED);
      const all = store.canaryStates();
      assert.deepEqual([...all.keys()].sort(), ['groq/llama-3.3-70b', 'other']);
      assert.deepEqual(all.get('groq/llama-3.3-70b'), QUARANTINED);
      all.delete('other');
      assert.equal(store.canaryStates().size, 2, 'changing the returned map changes nothing');
    });

    test('blocks: put lists in order, a put with the same id replaces, delete says whether it existed', () => {
      const store = make();
      assert.deepEqual(store.blocks(), []);
      store.putBlock(block('b1'));
      store.putBlock(block('b2', { kind: 'shed', route: 'groq/llama-3.3-70b', until: T0 + 3_600_000, by: null }));
      store.putBlock(block('b3', { kind: 'restore' }));
      store.putBlock(block('b1', { reason: 'refuses harmless requests' }));
      assert.deepEqual(
        store.blocks().map((b) => [b.id, b.kind, b.reason]),
        [
          ['b1', 'block', 'refuses harmless requests'],
          ['b2', 'shed', 'answers in Chinese'],
          ['b3', 'restore', 'answers in Chinese'],
        ],
      );
      assert.deepEqual(store.blocks()[1], block('b2', { kind: 'shed', route: 'groq/llama-3.3-70b', until: T0 + 3_600_000, by: null }));
      assert.equal(store.deleteBlock('b2'), true);
      assert.equal(store.deleteBlock('b2'), false);
      assert.equal(store.deleteBlock('never'), false);
      assert.deepEqual(
        store.blocks().map((b) => b.id),
        ['b1', 'b3'],
      );
    });

    test('settings: JSON documents by key, replaced by a put, gone after a delete', () => {
      const store = make();
      assert.equal(store.getSetting('roles'), undefined);
      store.putSetting('roles', { chat: { models: ['a', 'b'] } });
      store.putSetting('other', [1, 2]);
      store.putSetting('roles', { chat: { models: ['b'] } });
      assert.deepEqual(store.getSetting('roles'), { chat: { models: ['b'] } });
      assert.equal(store.deleteSetting('other'), true);
      assert.equal(store.deleteSetting('other'), false);
      assert.equal(store.getSetting('other'), undefined);
    });

    test('audit is newest first and honours the limit', () => {
      const store = make();
      assert.deepEqual(store.audit(10), []);
      for (const e of AUDIT) store.appendAudit(e);
      assert.deepEqual(store.audit(100), [...AUDIT].reverse());
      assert.deepEqual(store.audit(2), [AUDIT[5], AUDIT[4]]);
      assert.deepEqual(store.audit(0), []);
    });

    test('audit filters by route, by type, by since (inclusive), and by all together', () => {
      const store = make();
      for (const e of AUDIT) store.appendAudit(e);
      const ats = (events: AuditEvent[]) => events.map((e) => e.at - T0);
      assert.deepEqual(ats(store.audit(100, { route: 'a' })), [5, 3, 1]);
      assert.deepEqual(ats(store.audit(1, { route: 'a' })), [5]);
      assert.deepEqual(ats(store.audit(100, { type: 'canary_round' })), [6, 3]);
      assert.deepEqual(ats(store.audit(100, { since: T0 + 4 })), [6, 5, 4]);
      assert.deepEqual(ats(store.audit(100, { route: 'a', type: 'breaker_open' })), [1]);
      assert.deepEqual(ats(store.audit(100, { route: 'b', type: 'canary_round', since: T0 + 3 })), [6]);
      assert.deepEqual(ats(store.audit(100, { route: 'nowhere' })), []);
      assert.deepEqual(store.audit(100, { type: 'config_reload' }), [AUDIT[3]]);
    });

    test('ledger is newest first and honours the limit', () => {
      const store = make();
      assert.deepEqual(store.ledger(10), []);
      const entries = [
        entry(T0 + 1, 'req-1'),
        entry(T0 + 2, 'req-2', { finalRoute: null, outcome: 'unavailable', reason: 'quality:wrong_language', attempts: 3 }),
        entry(T0 + 3, 'req-3', { outcome: 'escalated', role: 'code', latencyMs: 12_345 }),
      ];
      for (const e of entries) store.appendLedger(e);
      assert.deepEqual(store.ledger(10), [...entries].reverse());
      assert.deepEqual(store.ledger(2), [entries[2], entries[1]]);
      assert.deepEqual(store.ledger(0), []);
    });

    if (harness.reopen) {
      const reopen = harness.reopen.bind(harness);
      test('a restart loses nothing: close and reopen give back every kind of state', async () => {
        const store = make();
        store.putBreaker('a', OPEN_BREAKER);
        store.putCanaryState('groq/llama-3.3-70b', QUARANTINED);
        store.putBlock(block('b1'));
        store.putBlock(block('b2', { kind: 'shed', until: T0 + 1 }));
        store.putBlock(block('b3', { kind: 'restore', by: null }));
        store.deleteBlock('b2');
        for (const e of AUDIT) store.appendAudit(e);
        store.appendLedger(entry(T0 + 1, 'req-1'));
        store.appendLedger(entry(T0 + 2, 'req-2', { finalRoute: null, outcome: 'unavailable' }));
        store.putSetting('roles', { chat: { models: ['b'] } });
        store.putSetting('gone', true);
        store.deleteSetting('gone');

        const again = await reopen(store);
        assert.deepEqual(again.getSetting('roles'), { chat: { models: ['b'] } });
        assert.equal(again.getSetting('gone'), undefined);
        opened.push(again);
        assert.deepEqual(again.getBreaker('a'), OPEN_BREAKER);
        assert.deepEqual(again.getCanaryState('groq/llama-3.3-70b'), QUARANTINED);
        assert.deepEqual([...again.canaryStates().keys()], ['groq/llama-3.3-70b']);
        assert.deepEqual(again.blocks(), [block('b1'), block('b3', { kind: 'restore', by: null })]);
        assert.deepEqual(again.audit(100), [...AUDIT].reverse());
        assert.deepEqual(
          again.audit(100, { route: 'a', since: T0 + 2 }).map((e) => e.type),
          ['breaker_closed', 'canary_round'],
        );
        assert.deepEqual(
          again.ledger(10).map((e) => [e.requestId, e.finalRoute, e.outcome]),
          [
            ['req-2', null, 'unavailable'],
            ['req-1', 'openrouter/llama-3.3-70b', 'fallback'],
          ],
        );
        assert.deepEqual(again.ledger(10)[1], entry(T0 + 1, 'req-1'));
      });
    }
  });
}
