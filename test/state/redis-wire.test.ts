// The Redis store's pure parts: the write backlog, the notice parser, and the local copy's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalCopy } from '../../src/state/redis-copy.js';
import { Ring } from '../../src/state/redis-ring.js';
import { Backlog, parseNotice, type ListOp } from '../../src/state/redis-wire.js';
import { OPEN_BREAKER, block, event } from './store.contract.js';

const op = (at: number): ListOp => ({ kind: 'audit', id: `i:${at}`, json: JSON.stringify(event(at, 't', null)), event: event(at, 't', null) });

test('the backlog coalesces hash keys, keeps appends in order, and drops the oldest past its bound', () => {
  const backlog = new Backlog(3);
  backlog.markDirty('blocks', 'b1');
  backlog.markDirty('blocks', 'b1');
  for (let i = 1; i <= 5; i++) backlog.push(op(i));
  assert.equal(backlog.size, 4);
  assert.equal(backlog.dropped, 2);
  const taken = backlog.take();
  assert.equal(backlog.size, 0);
  assert.deepEqual(taken.dirty.blocks, ['b1']);
  backlog.push(op(6));
  backlog.restore(taken);
  assert.deepEqual(
    backlog.list.map((o) => (o.kind === 'audit' ? o.event.at : -1)),
    [4, 5, 6],
    'a failed replay goes back in front of what came later',
  );
});

test('notices: only well-formed ones are accepted', () => {
  assert.deepEqual(parseNotice('{"kind":"blocks","key":"b1","origin":"x"}'), { kind: 'blocks', key: 'b1', origin: 'x' });
  assert.equal(parseNotice('{"kind":"ledger","key":"b1","origin":"x"}'), null);
  assert.equal(parseNotice('{"kind":"audit","key":"","origin":"x"}'), null, 'an audit notice carries its event');
  assert.equal(parseNotice('not json'), null);
});

test('the local copy ignores a read that a newer local write overtook, and keeps first-put order', () => {
  const copy = new LocalCopy();
  const never = () => false;
  const asked = copy.seq;
  copy.put('breakers', 'r', OPEN_BREAKER);
  const stale = JSON.stringify({ o: 1, v: { ...OPEN_BREAKER, state: 'closed' } });
  assert.equal(copy.applyField('breakers', 'r', stale, asked, never), false);
  assert.equal(copy.get('breakers', 'r')?.state, 'open');

  const later = copy.seq;
  const remote = { b2: JSON.stringify({ o: 20, v: block('b2') }), b1: JSON.stringify({ o: 10, v: block('b1') }) };
  const { changed } = copy.applyAll('blocks', remote, later, never);
  assert.deepEqual(changed.sort(), ['b1', 'b2']);
  assert.deepEqual([...copy.values('blocks').keys()], ['b1', 'b2']);
  assert.deepEqual(copy.applyAll('blocks', {}, copy.seq, (_kind, key) => key === 'b2').changed, ['b1'], 'a held key survives a reload');

  // A reload asked before a notice's value was taken must not undo it when its reply comes later.
  const reloadAsked = copy.seq;
  assert.equal(copy.applyField('blocks', 'b3', JSON.stringify({ o: 30, v: block('b3') }), copy.seq, never), true);
  assert.deepEqual(copy.applyAll('blocks', {}, reloadAsked, never).changed, ['b2'], 'the older reload removes b2 but keeps the newer b3');
  assert.deepEqual([...copy.values('blocks').keys()], ['b3']);
});

test('the local copy forgets when keys changed once no read is in flight, and still refuses a stale one', () => {
  const copy = new LocalCopy();
  const never = () => false;
  // Every runtime block, shed and restore is a key of its own: written, then deleted.
  for (let i = 0; i < 1_000; i++) {
    copy.put('blocks', `blk_${i}`, block(`blk_${i}`));
    copy.delete('blocks', `blk_${i}`);
  }
  copy.ask();
  copy.answered();
  assert.equal(copy.marks, 0, 'nothing to remember once no read is in flight');

  const inFlight = copy.ask();
  copy.put('breakers', 'r', OPEN_BREAKER);
  copy.put('blocks', 'late', block('late'));
  const stale = JSON.stringify({ o: 1, v: { ...OPEN_BREAKER, state: 'closed' } });
  assert.equal(copy.applyField('breakers', 'r', stale, inFlight, never), false, 'written after the read was asked');
  assert.equal(copy.get('breakers', 'r')?.state, 'open');
  assert.equal(copy.marks, 2);
  copy.answered();
  assert.equal(copy.marks, 0);
});

test('a ring takes another instance\'s item once, even when a reload already brought it', () => {
  const ring = new Ring<{ at: number }>(10);
  ring.load([JSON.stringify({ at: 2 }), JSON.stringify({ at: 1 })], ring.mark);
  assert.equal(ring.pushUnlessRecent({ at: 2 }), false);
  assert.equal(ring.pushUnlessRecent({ at: 3 }), true);
  assert.deepEqual(ring.items, [{ at: 1 }, { at: 2 }, { at: 3 }]);
});

test('a ring reload keeps the appends made while it was in flight', () => {
  const ring = new Ring<number>(4);
  ring.push(1);
  const mark = ring.mark;
  ring.push(2);
  assert.equal(ring.load(['1', '0', 'oops'], mark), 1);
  assert.deepEqual(ring.items, [0, 1, 2]);
  assert.deepEqual(ring.newest(2), [2, 1]);
});
