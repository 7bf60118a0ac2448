// `schema`: structured output. JSON first (kept apart: not JSON at all, JSON cut off, JSON
// wrapped in prose or a code fence — a failure for strict roles, named as such), then the
// JSON Schema: a missing field is named, any other mismatch is "wrong shape" with its path.
import type { Detector, Verdict } from '../types.js';
import { fail, pass, quote } from '../verdict.js';
import { extractJson } from './extract.js';
import { validatorFor, type SchemaError } from './validator.js';

export { assertSchema, schemaCacheStats, schemaProblem, SchemaValidators, SCHEMA_CACHE_CAPACITY, type SchemaCacheStats } from './validator.js';

const CHECK = 'schema';

export const schema: Detector = (reply, expectation) => {
  const found = extractJson(reply.text);
  switch (found.kind) {
    case 'none':
      return fail(CHECK, 'not_json', { detail: 'no JSON in the reply', evidence: { start: quote(reply.text.trim(), 40) } });
    case 'invalid':
      return fail(CHECK, 'not_json', {
        detail: found.truncated ? 'JSON that is cut off before it closes' : 'text that looks like JSON but does not parse',
        evidence: { error: found.error, truncated: found.truncated, start: quote(found.start, 40) },
      });
    case 'fence':
    case 'prose':
      if (expectation.strictJson) {
        const reason = found.kind === 'fence' ? 'json_in_code_fence' : 'json_wrapped_in_prose';
        return fail(CHECK, reason, { detail: 'valid JSON, but not bare as a strict role needs', evidence: { wrapper: quote(found.wrapper, 40) } });
      }
      return validate(found.value, expectation.schema, `extracted from ${found.kind === 'fence' ? 'a code fence' : 'prose'}`);
    case 'bare':
      return validate(found.value, expectation.schema);
  }
};

function validate(value: unknown, jsonSchema: object | undefined, note?: string): Verdict {
  const extra = note ? { detail: note } : {};
  if (!jsonSchema) return pass(CHECK, 'ok', extra);
  const check = validatorFor(jsonSchema);
  if (check(value)) return pass(CHECK, 'ok', extra);
  const error = check.errors?.[0];
  if (!error) return fail(CHECK, 'wrong_shape', { detail: 'the JSON does not match the schema' });
  if (error.keyword === 'required') {
    const field = String((error.params as { missingProperty?: string }).missingProperty ?? '');
    return fail(CHECK, 'missing_field', { detail: `missing field ${field}`, evidence: { field, path: error.instancePath || '/' } });
  }
  return fail(CHECK, 'wrong_shape', { detail: describe(error), evidence: { path: error.instancePath || '/', keyword: error.keyword, params: error.params } });
}

function describe(error: SchemaError): string {
  const where = error.instancePath || 'the reply';
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unexpected field ${String((error.params as { additionalProperty?: string }).additionalProperty)}`;
  }
  return `${where} ${error.message ?? 'does not match the schema'}`;
}
