export { Breaker, INITIAL_BREAKER, type BreakerPolicy, type BreakerSnapshot, type BreakerState, type Transition, type Admission } from './breaker.js';
export { parseRetryAfter, WaitBudget } from './retry-after.js';
export { BreakerBoard, type TransitionListener } from './board.js';
export { InFlight, type InFlightHandle } from './inflight.js';
export { classifyStatus, type OutcomeClass } from './outcome.js';
export { ConcurrencyQuota } from './quota.js';
