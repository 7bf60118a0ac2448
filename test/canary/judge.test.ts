// judgeProbe with the real quality detectors and realistic replies: transport kept apart from
// quality, caller errors undecided, latency by the runner's clock, evidence worth quoting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeProbe, probeRequest, type ProbeKind } from '../../src/canary/index.js';
import { ENFORCE, REPLIES, failed, ok } from './fixtures.js';

const request = (kind: ProbeKind, language = 'pt') => probeRequest(kind, { languages: ['en', 'pt'], language });
const judge = (kind: ProbeKind, exchange: Parameters<typeof judgeProbe>[1]) => judgeProbe(request(kind), exchange, ENFORCE);

describe('judgeProbe: transport and caller errors', () => {
  it('turns timeouts, 5xx and 429 into transport, with the error as the reason', () => {
    const timeout = judge('schema', failed('transport', null, 'upstream_timeout_first_token'));
    assert.equal(timeout.verdict, 'transport');
    assert.equal(timeout.reason, 'upstream_timeout_first_token');
    assert.equal(timeout.evidence.error, 'upstream_timeout_first_token');
    assert.equal(judge('fact', failed('transport', 503, 'upstream_status_503')).reason, 'upstream_status_503');
    // Whatever the runner called it, a 429 or a 5xx is the route's availability, not its quality.
    assert.equal(judge('fact', failed('client', 429, null)).verdict, 'transport');
    assert.equal(judge('fact', failed('client', 429, null)).reason, 'upstream_status_429');
    assert.equal(judge('prefix', { ...ok(REPLIES.strayAsterisk), status: 502 }).verdict, 'transport');
  });

  it('leaves client and config errors inconclusive, naming them', () => {
    const client = judge('schema', failed('client', 400, 'upstream_status_400'));
    assert.equal(client.verdict, 'inconclusive');
    assert.equal(client.reason, 'client_error');
    assert.equal(client.evidence.error, 'upstream_status_400');
    const config = judge('schema', failed('config', 401, null));
    assert.deepEqual([config.verdict, config.reason, config.evidence.error], ['inconclusive', 'config_error', 'upstream_status_401']);
  });
});

describe('judgeProbe: latency', () => {
  it('passes a first token within the limit and keeps its time', () => {
    const r = judge('latency', ok('Welcome', { firstTokenMs: 850 }));
    assert.equal(r.verdict, 'pass');
    assert.equal(r.evidence.firstTokenMs, 850);
  });

  it('fails a first token later than the limit', () => {
    const r = judge('latency', ok('Welcome', { firstTokenMs: 12_400 }));
    assert.deepEqual([r.verdict, r.reason], ['fail', 'first_token_slow']);
  });

  it('fails a stream with no token: slow when the runner gave up at the limit, silent when it ended', () => {
    const slow = judge('latency', ok('', { firstTokenMs: null, totalMs: 10_050 }));
    assert.deepEqual([slow.verdict, slow.reason], ['fail', 'first_token_slow']);
    const silent = judge('latency', ok('', { firstTokenMs: null, totalMs: 640 }));
    assert.deepEqual([silent.verdict, silent.reason], ['fail', 'no_first_token']);
  });
});

describe('judgeProbe: prefix', () => {
  it('fails a reply opening with a stray "*", quoting the token and the snippet', () => {
    const r = judge('prefix', ok(REPLIES.strayAsterisk));
    assert.deepEqual([r.verdict, r.reason, r.evidence.check], ['fail', 'unmatched_markdown', 'prefix']);
    assert.equal(r.evidence.found?.token, '*');
    assert.equal(r.evidence.snippet, REPLIES.strayAsterisk);
  });

  it('fails a leaked <|im_start|> token', () => {
    const r = judge('prefix', ok(REPLIES.templateToken));
    assert.deepEqual([r.verdict, r.reason], ['fail', 'template_token']);
  });

  it('passes an in-character reply that opens with a closed role-play action', () => {
    assert.equal(judge('prefix', ok(REPLIES.cleanInnkeeper)).verdict, 'pass');
  });

  it('fails mojibake through the encoding check it also runs', () => {
    const r = judge('prefix', ok('Evening, traveller! The cafÃ© downstairs is open and the stew is hot tonight.'));
    assert.deepEqual([r.verdict, r.evidence.check], ['fail', 'encoding']);
  });

  it('calls an empty reply inconclusive: nothing was there to judge', () => {
    const r = judge('prefix', ok(''));
    assert.deepEqual([r.verdict, r.reason], ['inconclusive', 'empty_reply']);
  });
});

describe('judgeProbe: language', () => {
  it('fails Portuguese with Spanish sentences (≥ 300 characters), keeping the detected languages', () => {
    assert.ok(REPLIES.portugueseWithSpanish.length >= 300);
    const r = judge('language', ok(REPLIES.portugueseWithSpanish));
    assert.deepEqual([r.verdict, r.reason, r.language], ['fail', 'mixed_language', 'pt']);
    const languages = (r.evidence.languages as { languages: Array<{ language: string }> }).languages;
    assert.equal(languages[0]?.language, 'es');
    assert.equal(r.evidence.snippet?.length, 160);
  });

  it('passes clean Portuguese', () => {
    const r = judge('language', ok(REPLIES.portuguese));
    assert.equal(r.verdict, 'pass');
    assert.equal((r.evidence.languages as { expected: string }).expected, 'pt');
  });

  it('never fails a short reply: it is inconclusive', () => {
    const r = judge('language', ok('Sim, claro!'));
    assert.deepEqual([r.verdict, r.reason], ['inconclusive', 'too_short']);
  });
});

describe('judgeProbe: schema, fact, filter', () => {
  it('fails broken JSON as not_json, with the parse error', () => {
    const r = judge('schema', ok(REPLIES.brokenJson));
    assert.deepEqual([r.verdict, r.reason], ['fail', 'not_json']);
    assert.equal(typeof r.evidence.parseError, 'string');
    assert.equal(r.evidence.parsed, undefined);
  });

  it('fails JSON wrapped in prose: the probe asks for strict output', () => {
    assert.equal(judge('schema', ok(REPLIES.jsonInProse)).reason, 'json_wrapped_in_prose');
  });

  it('passes bare JSON of the schema, keeping the parsed value; names a missing field', () => {
    const r = judge('schema', ok(REPLIES.json));
    assert.equal(r.verdict, 'pass');
    assert.deepEqual(r.evidence.parsed, { city: 'Paris', country: 'France' });
    assert.equal(judge('schema', ok('{"city": "Paris"}')).reason, 'missing_field');
  });

  it('matches the fact after normalisation, in either accepted form', () => {
    assert.equal(judge('fact', ok('Paris.')).verdict, 'pass');
    assert.equal(judge('fact', ok('巴黎')).verdict, 'pass');
    assert.deepEqual([judge('fact', ok('Lyon')).verdict, judge('fact', ok('Lyon')).reason], ['fail', 'wrong_answer']);
  });

  it('fails a refusal of the allowed scene, and a content_filter finish with no text', () => {
    const refused = judge('filter', ok(REPLIES.refusal));
    assert.deepEqual([refused.verdict, refused.reason], ['fail', 'refusal_phrase']);
    const filtered = judge('filter', ok('', { finishReason: 'content_filter' }));
    assert.deepEqual([filtered.verdict, filtered.reason, filtered.evidence.finishReason], ['fail', 'content_filter', 'content_filter']);
    assert.equal(judge('filter', ok('   ')).reason, 'whitespace_only');
  });

  it('passes an in-character continuation', () => {
    assert.equal(judge('filter', ok(REPLIES.continuation)).verdict, 'pass');
  });
});
