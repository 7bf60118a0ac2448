// Deterministic JSON values that satisfy a (subset of) JSON Schema: what a well-behaved model
// returns for `response_format: json_schema` and for tool-call arguments.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Text the generator fills string fields with, by what the field seems to hold. */
export interface ValueHints {
  /** A sentence in the reply language, for free-text fields. */
  sentence: string;
  language: string;
  /** A known answer for this prompt (a fact), used for answer-like and city fields. */
  answer?: string;
  country?: string;
}

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {});

export function valueFor(schemaValue: unknown, hints: ValueHints, key = '', depth = 0): Json {
  const schema = asSchema(schemaValue);
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as Json;
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[combinator];
    if (Array.isArray(options) && options.length > 0) return valueFor(options[0], hints, key, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : schema.items ? 'array' : 'string')) {
    case 'object':
      return depth > 8 ? {} : objectFor(schema, hints, depth);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : 2;
      const count = Math.max(min, Math.min(2, max));
      return Array.from({ length: count }, () => valueFor(schema.items, hints, singular(key), depth + 1));
    }
    case 'integer':
      return clampNumber(schema, 3, true);
    case 'number':
      return clampNumber(schema, 0.75, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringFor(key, hints);
  }
}

function objectFor(schema: Schema, hints: ValueHints, depth: number): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const properties = asSchema(schema.properties);
  for (const [name, property] of Object.entries(properties)) out[name] = valueFor(property, hints, name, depth + 1);
  return out;
}

function clampNumber(schema: Schema, preferred: number, integer: boolean): number {
  let value = preferred;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return integer ? Math.round(value) : value;
}

function singular(key: string): string {
  return key.endsWith('s') ? key.slice(0, -1) : key;
}

function stringFor(key: string, hints: ValueHints): string {
  const k = key.toLowerCase();
  if (/city|capital/.test(k)) return hints.answer ?? 'Paris';
  if (/country/.test(k)) return hints.country ?? 'France';
  if (/answer|result/.test(k)) return hints.answer ?? hints.sentence;
  if (/lang/.test(k)) return hints.language;
  if (/email/.test(k)) return 'alex@example.com';
  if (/date/.test(k)) return '2024-05-17';
  if (/name/.test(k)) return 'Alex';
  if (/intent|category|label|kind|type/.test(k)) return 'chitchat';
  if (/id$/.test(k)) return 'item-1';
  if (/url/.test(k)) return 'https://example.com';
  return hints.sentence;
}

/** The required property names of an object schema, for the "missing field" broken JSON. */
export function requiredOf(schemaValue: unknown): string[] {
  const required = asSchema(schemaValue).required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}
