// The face of the canary: probes, their verdicts, rounds, positive controls and the
// quarantine ladder — pure logic; the runner that sends probes lives beside it.
export { PROBE_KINDS, INITIAL_ROUTE_STATE } from './types.js';
export type { ProbeKind, ProbeRequest, ProbeExchange, ProbeVerdict, ProbeEvidence, ProbeResult, RoundVerdict, RouteRound, Quarantine, CanaryRouteState, CanaryPolicy } from './types.js';
export { CanaryError, isCanaryError, type CanaryErrorCode } from './errors.js';
export { DEFAULT_CANARY_POLICY, canaryPolicy } from './policy.js';
export { probeRequests, probeRequest, probeJudging, DEFAULT_PROBE_MAX_TOKENS, LATENCY_MAX_TOKENS, PROBE_SEED, PROBE_TEXT_LANGUAGE, PROBE_LANGUAGES, type ProbeOptions, type ProbeJudging } from './probes.js';
export { CAPITAL_SCHEMA, FACT_ANSWERS, LANGUAGE_NAMES } from './probe-prompts.js';
export { judgeProbe } from './judge.js';
export { needsConfirmation, decideLanguage, isLanguageAnomaly } from './language-confirm.js';
export { decideRound, applyPositiveControls, isControl, CONTROLLED_KINDS, type ControlledResults } from './round.js';
export { advance, expire, release, nextLanguage, ladderStep, ladderDuration, escalatingLadder, type CanaryDecision, type LadderContext, type LadderOutcome, type QuarantineLadder } from './ladder.js';
export { sendProbe, type ProbeTarget } from './probe-client.js';
export { CanaryRunner, type CanaryRunnerOptions, type RoundReport, type RouteReport } from './runner.js';
export { releaseQuarantine, type QuarantineEndDeps } from './release.js';
export { CanaryScheduler } from './scheduler.js';
export { policyFromConfig } from './from-config.js';
