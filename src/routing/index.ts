export { Router, type Plan, type PlanSplit, type PlanObserver, type RequestEnd, type SplitFactory } from './plan.js';
export { restrictsEndpoints, clientAllowedEndpoints, pinExcludedByClient } from './client-endpoints.js';
export { AttemptPlanner, type AttemptChoice, type FailedAttempt, type RouteHealth, type HealthAdmission, type PlannerOptions } from './attempts.js';
export { readSignals, decideEscalation, type EscalationDecision, type EscalationSignals } from './escalation.js';
export { effectiveThinking, isStructuredRole } from './thinking.js';
