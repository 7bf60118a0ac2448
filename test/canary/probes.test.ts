// The probe catalog: one deterministic request per kind, the language probe in all 17
// product languages, and what each probe is judged by.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_PROBE_MAX_TOKENS,
  LANGUAGE_NAMES,
  LATENCY_MAX_TOKENS,
  PROBE_KINDS,
  PROBE_LANGUAGES,
  isCanaryError,
  probeJudging,
  probeRequest,
  probeRequests,
  type ProbeRequest,
} from '../../src/canary/index.js';
import { LANGUAGES, runChecks } from '../../src/quality/index.js';

const options = { languages: ['en', 'pt'], language: 'pt' };
const byKind = (requests: ProbeRequest[], kind: string) => {
  const found = requests.find((r) => r.kind === kind);
  assert.ok(found, kind);
  return found;
};
type Message = { role: string; content: string };
const messagesOf = (r: ProbeRequest) => r.body.messages as Message[];

describe('probeRequests', () => {
  it('returns one request per kind, the same every time', () => {
    const requests = probeRequests(options);
    assert.deepEqual(requests.map((r) => r.kind), [...PROBE_KINDS]);
    assert.deepEqual(probeRequests(options), requests);
  });

  it('samples deterministically with small token caps', () => {
    for (const r of probeRequests(options)) {
      assert.equal(r.body.temperature, 0, r.kind);
      assert.equal(typeof r.body.seed, 'number', r.kind);
      assert.equal(r.body.max_tokens, r.kind === 'latency' ? LATENCY_MAX_TOKENS : DEFAULT_PROBE_MAX_TOKENS, r.kind);
    }
    assert.equal(byKind(probeRequests({ ...options, maxTokens: 120 }), 'prefix').body.max_tokens, 120);
    assert.equal(byKind(probeRequests({ ...options, maxTokens: 120 }), 'latency').body.max_tokens, LATENCY_MAX_TOKENS);
  });

  it('streams only the latency probe, which stops at the first token', () => {
    for (const r of probeRequests(options)) {
      assert.equal(r.body.stream, r.kind === 'latency', r.kind);
      assert.equal(r.stopAtFirstToken, r.kind === 'latency', r.kind);
    }
  });

  it('asks the schema probe for strict json_schema output and judges it strictly', () => {
    const schema = byKind(probeRequests(options), 'schema');
    const format = schema.body.response_format as { type: string; json_schema: { name: string; strict: boolean; schema: { required: string[]; additionalProperties: boolean } } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(format.json_schema.schema.required, ['city', 'country']);
    assert.equal(format.json_schema.schema.additionalProperties, false);
    assert.match(messagesOf(schema)[0]?.content ?? '', /capital of France/);
    const judging = probeJudging(schema);
    assert.deepEqual(judging.checks, ['schema']);
    assert.equal(judging.expectation.strictJson, true);
  });

  it('asks a fixed fact with a bare-answer instruction, expecting Paris or 巴黎', () => {
    const fact = byKind(probeRequests(options), 'fact');
    assert.equal(messagesOf(fact)[0]?.content, 'What is the capital of France? Answer with the city name only.');
    assert.deepEqual(probeJudging(fact), { checks: ['fact'], expectation: { expected: ['Paris', '巴黎'] } });
  });

  it('judges filter, prefix and language probes by the detectors the brief names', () => {
    const requests = probeRequests(options);
    assert.deepEqual(probeJudging(byKind(requests, 'filter')).checks, ['refusal', 'nonempty']);
    assert.deepEqual(probeJudging(byKind(requests, 'prefix')).checks, ['prefix', 'encoding']);
    assert.deepEqual(probeJudging(byKind(requests, 'language')), { checks: ['language', 'encoding'], expectation: { language: 'pt' } });
    assert.deepEqual(probeJudging(byKind(requests, 'latency')).checks, []);
  });

  it('hands out fresh objects: a runner adding `model` to one body changes no other round', () => {
    const first = probeRequests(options);
    first[0]!.body.model = 'x';
    messagesOf(byKind(first, 'filter'))[0]!.content = 'changed';
    const second = probeRequests(options);
    assert.equal(second[0]!.body.model, undefined);
    assert.notEqual(messagesOf(byKind(second, 'filter'))[0]!.content, 'changed');
  });
});

describe('language probe', () => {
  it('covers all 17 product languages', () => {
    assert.deepEqual([...PROBE_LANGUAGES].sort(), [...LANGUAGES].sort());
  });

  it('in each language: a "Reply in <language>." system line and a prompt that reads as that language', () => {
    for (const language of LANGUAGES) {
      const r = probeRequest('language', { languages: [...LANGUAGES], language });
      assert.equal(r.language, language);
      const [system, user] = messagesOf(r);
      assert.equal(system?.role, 'system');
      assert.ok(system?.content.endsWith(`Reply in ${LANGUAGE_NAMES[language]}.`), language);
      const [verdict] = runChecks(['language'], { text: user?.content ?? '', finishReason: 'stop' }, { language });
      assert.equal(verdict?.verdict, 'pass', `${language}: ${verdict?.reason}`);
      assert.match(user?.content ?? '', /\S{2,}/);
    }
  });

  it('refuses a language the canary is not configured for, or has no prompt for', () => {
    assert.throws(() => probeRequests({ languages: ['en'], language: 'pt' }), (e) => isCanaryError(e) && e.code === 'language_not_configured');
    assert.throws(() => probeRequests({ languages: ['xx'], language: 'xx' }), (e) => isCanaryError(e) && e.code === 'unknown_probe_language');
  });
});
