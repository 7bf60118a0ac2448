// Reading admin request bodies: small JSON objects, with errors that name the field.
import type { IncomingMessage } from 'node:http';
import { parseJsonObject, readBody } from '../protocol/body.js';
import { invalidRequest } from '../protocol/errors.js';

export async function jsonBody(req: IncomingMessage, optional = false): Promise<Record<string, unknown>> {
  const raw = await readBody(req, 64 * 1024);
  return raw.length === 0 && optional ? {} : parseJsonObject(raw);
}

export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`"${field}" is required and must be a non-empty string`, field);
  return value;
}

/** A route id or role name taken from the path, percent-decoded; a malformed escape (`%ZZ`) is a 400 naming it, not a URIError's 500. */
export function pathSegment(encoded: string, param: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw invalidRequest(`the ${param} in the path is not valid percent-encoding: "${encoded.slice(0, 80)}"`, param);
  }
}
