// One Ajv instance for the process, created at first use; one compiled validator per schema
// object, kept as long as the object lives (a role's schema is compiled once, not per reply).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { QualityError } from '../errors.js';

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

function instance(): Ajv {
  if (!ajv) {
    // strict: false — schemas come from users and may carry keywords Ajv does not know;
    // addUsedSchema: false — two roles may reuse one $id without clashing.
    ajv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false });
    // ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
    (addFormats as unknown as { default: (a: Ajv) => void }).default(ajv);
  }
  return ajv;
}

export function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = instance().compile(schema);
    } catch (e) {
      throw new QualityError('invalid_schema', `the JSON Schema does not compile: ${(e as Error).message}`);
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** Compiles a schema now, so that a bad one fails at configuration time, not on the first reply. */
export function assertSchema(schema: object): void {
  validatorFor(schema);
}

/** Why a schema does not compile (Ajv's reason), or null when it does: for callers that report rather than throw. */
export function schemaProblem(schema: object): string | null {
  try {
    validatorFor(schema);
    return null;
  } catch (e) {
    if (e instanceof QualityError) return e.message;
    throw e;
  }
}

export type SchemaError = ErrorObject;
