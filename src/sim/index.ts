// The simulated provider fleet: one HTTP server playing many OpenAI-compatible providers and
// an OpenRouter-style aggregator over them, with seeded, deterministic fault injection. It is
// the upstream of the demo, the tests and the benchmark. Other folders import only this file.
export { startFleet, type Fleet, type FleetOptions } from './fleet.js';
export { loadScenario, parseScenario, ScenarioError, isScenarioError, type Scenario, type ProviderSpec, type ModelInfo } from './scenario.js';
export { FAULT_NAMES, type FaultName, type Faults } from './faults.js';
export type { FleetStats, ProviderStats, RecentRequest } from './stats.js';
export { LANGUAGES, detectLanguage, type Language } from './language.js';
export { SENTENCES, REFUSALS } from './sentences.js';
