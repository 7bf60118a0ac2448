// The face of the quality detectors: pure, deterministic checks of one reply, shared by the
// request gate and the canary. Nothing here does I/O or reads a clock; eld's n-gram data
// and Ajv are loaded once, at first use or by warmUp().
import { warmUpLanguage } from './language/index.js';

export { detectors, isCheckName, runChecks, worstVerdict } from './registry.js';
export { CHECK_NAMES, type CheckName, type Detector, type Expectation, type Reply, type Verdict, type VerdictKind } from './types.js';
export { QualityError, isQualityError, type QualityErrorCode } from './errors.js';
export { LANGUAGES, dominantLanguageOf, type Language } from './language/index.js';
export { assertSchema, schemaCacheStats, schemaProblem, SchemaValidators, SCHEMA_CACHE_CAPACITY, type SchemaCacheStats } from './schema/index.js';
export { normaliseAnswer } from './fact.js';

/** Loads what the first reply would otherwise wait for (eld's n-gram data, ~0.5 s). */
export function warmUp(): void {
  warmUpLanguage();
}
