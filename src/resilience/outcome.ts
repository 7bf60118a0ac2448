// Every upstream outcome is one class. Only `transport` says the route is unavailable and
// feeds its breaker; a bad prompt (`client`) or a bad answer (`quality`) never does, and a
// refused key (`config`) is the operator's problem, not the route's.

export type OutcomeClass = 'ok' | 'transport' | 'rate_limited' | 'client' | 'config' | 'quality';

/** The class of an upstream HTTP status (200 is `ok` until the quality gate says otherwise). */
export function classifyStatus(status: number): OutcomeClass {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'config';
  if (status >= 400 && status < 500) return status === 408 ? 'transport' : 'client';
  return 'transport';
}
