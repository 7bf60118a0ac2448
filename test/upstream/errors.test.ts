// Telling Warden's own failures from the upstream's: what the exchange's sink throws (writing
// the client's answer, Warden's code) is `internal` whatever it looks like; what undici reports
// while reading the upstream is the upstream's. Pure logic, no sockets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorClassOf } from '../../src/server/attempt-result.js';
import { sinkFailure, UpstreamFailure } from '../../src/upstream/index.js';
import { fromUndiciError } from '../../src/upstream/errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('anything the sink throws is Warden\u2019s failure, even an error that looks like a lost connection', () => {
  for (const thrown of [
    Object.assign(new TypeError('Invalid character in header content ["x-warden-route"]'), { code: 'ERR_INVALID_CHAR' }),
    withCode('write EPIPE', 'EPIPE'),
    withCode('other side closed', 'UND_ERR_SOCKET'),
    new RangeError('Maximum call stack size exceeded'),
    'a string',
  ]) {
    const failure = sinkFailure(thrown);
    assert.equal(failure.kind, 'internal');
    assert.equal(failure.code, 'gateway_internal_error');
    assert.equal(failure.cause, thrown, 'the original error is kept for the log');
    assert.equal(errorClassOf({ kind: 'failure', failure, servedEndpoint: null }), 'internal');
  }
  assert.match(sinkFailure(withCode('Invalid character in header content ["x-warden-route"]', 'ERR_INVALID_CHAR')).message, /ERR_INVALID_CHAR: Invalid character/);
});

test('what undici reports reading the upstream stays the upstream\u2019s; a sink failure aborted through undici comes back unchanged', () => {
  assert.deepEqual([fromUndiciError(withCode('other side closed', 'UND_ERR_SOCKET')).kind, fromUndiciError(withCode('read ECONNRESET', 'ECONNRESET')).kind], ['reset', 'reset']);
  assert.equal(fromUndiciError(withCode('connect ECONNREFUSED', 'ECONNREFUSED')).kind, 'connect');
  const failure = sinkFailure(new Error('boom'));
  assert.equal(fromUndiciError(failure), failure);
  assert.ok(failure instanceof UpstreamFailure);
});
