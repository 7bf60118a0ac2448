// Compiled JSON Schemas, bounded. Ajv keeps each schema it compiles in a cache of its own,
// keyed by the schema object, for the life of the instance; every config reload or admin
// role change parses new objects, so compiling them as they came grew the process without
// end. Here a schema compiles once per distinct JSON text, at most `capacity` texts stay
// compiled (the least recently used is dropped, and Ajv forgets it), and a schema object
// keeps its validator for as long as the object lives: a role's gate looks nothing up per reply.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { QualityError } from '../errors.js';

interface Compiled {
  /** The object Ajv compiled and caches it under: a private copy, so removing it removes exactly it. */
  key: object;
  validate: ValidateFunction;
}

export interface SchemaCacheStats {
  /** Distinct schemas compiled and held now (Ajv holds the same ones); never above the capacity. */
  held: number;
  capacity: number;
  /** Compilations since start: a schema met again while held does not add one. */
  compiles: number;
}

export class SchemaValidators {
  readonly #byObject = new WeakMap<object, ValidateFunction>();
  /** By JSON text, least recently used first (a Map keeps insertion order). */
  readonly #byText = new Map<string, Compiled>();
  #ajv: Ajv | undefined;
  #compiles = 0;

  constructor(readonly capacity: number) {}

  validatorFor(schema: object): ValidateFunction {
    const known = this.#byObject.get(schema);
    if (known) return known;
    const text = textOf(schema);
    let entry = this.#byText.get(text);
    if (entry) this.#byText.delete(text);
    else entry = this.#compile(text);
    this.#byText.set(text, entry);
    this.#evict();
    this.#byObject.set(schema, entry.validate);
    return entry.validate;
  }

  stats(): SchemaCacheStats {
    return { held: this.#byText.size, capacity: this.capacity, compiles: this.#compiles };
  }

  #compile(text: string): Compiled {
    const ajv = this.#instance();
    const key = JSON.parse(text) as object;
    this.#compiles++;
    try {
      return { key, validate: keepingRegistry(ajv, () => ajv.compile(key)) };
    } catch (e) {
      // Ajv caches the schema before it finds it invalid: a refused schema must not stay either.
      keepingRegistry(ajv, () => ajv.removeSchema(key));
      throw new QualityError('invalid_schema', `the JSON Schema does not compile: ${(e as Error).message}`);
    }
  }

  #evict(): void {
    for (const [text, entry] of this.#byText) {
      if (this.#byText.size <= this.capacity) return;
      this.#byText.delete(text);
      // A validator already handed out keeps working: it is compiled code, Ajv only forgets it.
      keepingRegistry(this.#ajv!, () => this.#ajv!.removeSchema(entry.key));
    }
  }

  #instance(): Ajv {
    if (!this.#ajv) {
      // strict: false — schemas come from users and may carry keywords Ajv does not know.
      // A schema is registered by its id while it compiles, so `$ref: "#"` (a recursive schema)
      // resolves; keepingRegistry unregisters it after, so two roles may reuse one $id.
      this.#ajv = new Ajv({ allErrors: false, strict: false });
      // ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
      (addFormats as unknown as { default: (a: Ajv) => void }).default(this.#ajv);
    }
    return this.#ajv;
  }
}

/**
 * Runs `work` leaving Ajv's registry of schemas by id (its meta-schemas) as it was. A compile
 * registers the schema and the ids nested in it (two roles' schemas with one `$id` would then
 * clash), and removing a schema by object also unregisters whatever is held under its
 * top-level `$id`: a user's schema naming the meta-schema's id would take the meta-schema
 * away, and every later compile would fail.
 */
function keepingRegistry<T>(ajv: Ajv, work: () => T): T {
  const schemas = { ...ajv.schemas };
  const refs = { ...ajv.refs };
  try {
    return work();
  } finally {
    restore(ajv.schemas, schemas);
    restore(ajv.refs, refs);
  }
}

function restore<T>(target: Record<string, T>, saved: Record<string, T>): void {
  for (const id of Object.keys(target)) if (!Object.hasOwn(saved, id)) delete target[id];
  Object.assign(target, saved);
}

function textOf(schema: object): string {
  try {
    return JSON.stringify(schema);
  } catch (e) {
    throw new QualityError('invalid_schema', `the JSON Schema is not JSON: ${(e as Error).message}`);
  }
}

/**
 * The process's compiled schemas: role schemas of every config generation, the canary's probe
 * schema, `warden inspect --schema`. Far more than a config holds; a gateway reloaded or
 * changed many times keeps at most this many compiled.
 */
export const SCHEMA_CACHE_CAPACITY = 256;
const validators = new SchemaValidators(SCHEMA_CACHE_CAPACITY);

export function validatorFor(schema: object): ValidateFunction {
  return validators.validatorFor(schema);
}

/** How many compiled schemas the process holds, and how many compilations it has done. */
export function schemaCacheStats(): SchemaCacheStats {
  return validators.stats();
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
