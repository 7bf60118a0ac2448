// One probe's verdict from what came back: transport faults kept apart from quality (they
// freeze the route's counters), caller errors left undecided, latency by the clock the
// runner read, everything else by the same quality detectors the request gate uses.
import { runChecks, type Verdict } from '../quality/index.js';
import { probeJudging } from './probes.js';
import { WARDEN_FAILED_REASON, type CanaryPolicy, type ProbeEvidence, type ProbeExchange, type ProbeRequest, type ProbeResult } from './types.js';

const SNIPPET_CHARS = 160;

export function judgeProbe(request: ProbeRequest, exchange: ProbeExchange, policy: CanaryPolicy): ProbeResult {
  const result = (verdict: ProbeResult['verdict'], reason: string, evidence: ProbeEvidence): ProbeResult => ({
    kind: request.kind,
    language: request.language,
    verdict,
    reason,
    evidence,
  });
  // Warden failed while reading the answer: nothing is known of the route, either way.
  if (exchange.outcome === 'internal') return result('inconclusive', WARDEN_FAILED_REASON, { error: exchange.error ?? WARDEN_FAILED_REASON, status: exchange.status, totalMs: exchange.totalMs });
  const transport = transportError(exchange);
  if (transport !== null) return result('transport', transport, { error: transport, status: exchange.status, totalMs: exchange.totalMs });
  if (exchange.outcome === 'client' || exchange.outcome === 'config') {
    // A request the route rejected as ours to fix (bad body, bad key) says nothing about its quality.
    const error = exchange.error ?? `upstream_status_${exchange.status ?? 0}`;
    return result('inconclusive', `${exchange.outcome}_error`, { error, status: exchange.status });
  }
  const evidence: ProbeEvidence = {
    firstTokenMs: exchange.firstTokenMs,
    totalMs: exchange.totalMs,
    snippet: snippet(exchange.text),
    finishReason: exchange.finishReason,
  };
  if (request.kind === 'latency') return judgeLatency(exchange, policy, evidence, result);

  const { checks, expectation } = probeJudging(request);
  const verdicts = runChecks(checks, { text: exchange.text, finishReason: exchange.finishReason }, expectation);
  if (request.kind === 'schema') Object.assign(evidence, parseEvidence(exchange.text));
  const language = verdicts.find((v) => v.check === 'language');
  if (language?.evidence) evidence.languages = language.evidence;

  const deciding = verdicts.find((v) => v.verdict === 'fail') ?? verdicts.find((v) => v.verdict === 'inconclusive');
  if (deciding) return result(deciding.verdict, deciding.reason, { ...evidence, ...finding(deciding) });
  // A pass needs something to have been judged: the prefix detector passes an empty reply
  // (emptiness is the filter probe's finding), which proves nothing about its opening.
  if (exchange.text.trim() === '') return result('inconclusive', 'empty_reply', evidence);
  return result('pass', 'ok', evidence);
}

function judgeLatency(
  exchange: ProbeExchange,
  policy: CanaryPolicy,
  evidence: ProbeEvidence,
  result: (verdict: ProbeResult['verdict'], reason: string, evidence: ProbeEvidence) => ProbeResult,
): ProbeResult {
  const limit = policy.firstTokenLimitMs;
  if (exchange.firstTokenMs === null) {
    // The runner stops waiting at the limit and reports no token: that is slowness, not silence.
    const reason = exchange.totalMs >= limit ? 'first_token_slow' : 'no_first_token';
    return result('fail', reason, { ...evidence, detail: reason === 'first_token_slow' ? `no first token within ${limit} ms` : 'the stream ended without a token' });
  }
  if (exchange.firstTokenMs > limit) return result('fail', 'first_token_slow', { ...evidence, detail: `first token after ${exchange.firstTokenMs} ms (limit ${limit} ms)` });
  return result('pass', 'ok', evidence);
}

/** The stable code of a transport fault, or null: timeouts, network errors, 429 and 5xx whatever the outcome says. */
function transportError(exchange: ProbeExchange): string | null {
  const status = exchange.status;
  const statusFault = status !== null && (status === 429 || status >= 500);
  if (exchange.outcome !== 'transport' && !statusFault) return null;
  return exchange.error ?? (status !== null ? `upstream_status_${status}` : 'upstream_transport');
}

function finding(v: Verdict): ProbeEvidence {
  return { check: v.check, ...(v.detail ? { detail: v.detail } : {}), ...(v.evidence ? { found: v.evidence } : {}) };
}

/** Structured-output evidence: the value as parsed, or why the text is not bare JSON. */
function parseEvidence(text: string): Pick<ProbeEvidence, 'parsed' | 'parseError'> {
  try {
    return { parsed: JSON.parse(text) as unknown };
  } catch (e) {
    return { parseError: (e as Error).message };
  }
}

/** The opening of the answer as received, never cut inside a surrogate pair. */
function snippet(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const last = text.charCodeAt(SNIPPET_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? SNIPPET_CHARS - 1 : SNIPPET_CHARS);
}
