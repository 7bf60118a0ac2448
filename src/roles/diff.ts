// What a change did, field by field: the "what" of an audited role change (before → after).
import { formatPath } from '../config/errors.js';
import { isPlainObject } from '../protocol/body.js';

export interface FieldChange {
  /** `models`, `escalation.threshold`, `rollout.weight`, … ; `(role)` when the whole role came or went. */
  path: string;
  /** Absent (undefined) when the field is new. */
  before?: unknown;
  /** Absent (undefined) when the field was removed. */
  after?: unknown;
}

/** Changes between two JSON values: objects compared key by key, arrays and scalars as wholes. */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(before, after, [], changes);
  return changes;
}

function walk(before: unknown, after: unknown, path: string[], out: FieldChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) walk(before[key], after[key], [...path, key], out);
    return;
  }
  if (same(before, after)) return;
  const change: FieldChange = { path: path.length === 0 ? '(role)' : formatPath(path) };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  out.push(change);
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}
