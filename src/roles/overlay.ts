// The runtime role layer over the YAML: whole roles as an operator wrote them, each replacing
// the base role of its name. The effective config is the base with those roles put in, run
// through the config's own schema and cross-checks, so a bad change is refused with the same
// path-named errors as a bad file (`roles.chat.models[1]: unknown model "chat-smal"`).
import { isConfigError, nameProblem, validateConfig, type RoleConfig, type WardenConfig } from '../config/index.js';
import { isPlainObject } from '../protocol/body.js';
import { RoleError } from './errors.js';

/** A role as written through the admin API (plain JSON), before validation. */
export type RoleEntry = Record<string, unknown>;

/** One role's last change: who (the admin token's name, or `auto`), when (epoch ms) and why. */
export interface RoleNote {
  at: number;
  by: string;
  reason: string;
}

export interface RoleOverlay {
  roles: Readonly<Record<string, RoleEntry>>;
  /** The last change of each role in `roles` (an overlay stored before these were kept has none). */
  changes: Readonly<Record<string, RoleNote>>;
  /** Who changed it last, when (epoch ms); null for an empty overlay never written. */
  updatedAt: number | null;
  updatedBy: string | null;
}

export const EMPTY_OVERLAY: RoleOverlay = Object.freeze({ roles: Object.freeze({}), changes: Object.freeze({}), updatedAt: null, updatedBy: null });

/** A role by name, own keys only: a plain object answers `constructor` or `__proto__` from its prototype. */
export function roleNamed<T>(roles: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(roles, name) ? roles[name] : undefined;
}

/** A role name an operator writes must be one the config accepts; throws `invalid_role` naming it. */
export function assertRoleName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new RoleError('invalid_role', `role ${problem}`, 'name');
}

/** The base with the overlay's roles in place of its own; throws `invalid_role` naming the field. */
export function effectiveConfig(base: WardenConfig, roles: Readonly<Record<string, RoleEntry>>): WardenConfig {
  try {
    return validateConfig({ ...base, roles: { ...base.roles, ...roles } }, 'role overlay');
  } catch (e) {
    if (!isConfigError(e)) throw e;
    const first = e.issues[0]!;
    throw new RoleError('invalid_role', e.issues.map((i) => `${i.path}: ${i.message}`).join('; '), first.path, e.issues);
  }
}

/** A validated role as an entry again (durations in ms, defaults filled): what PATCH edits. */
export function entryOf(role: RoleConfig): RoleEntry {
  return JSON.parse(JSON.stringify(role)) as RoleEntry;
}

/**
 * JSON merge patch (RFC 7396): objects merge key by key, `null` removes a key, anything
 * else (arrays included) replaces. How PATCH /admin/roles/:name edits one field of a role.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  // A Map, not an object: a patched `__proto__` stays a key (which validation refuses) instead of setting a prototype.
  const out = new Map(Object.entries(isPlainObject(target) ? target : {}));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) out.delete(key);
    else out.set(key, mergePatch(out.get(key), value));
  }
  return Object.fromEntries(out);
}

/** The overlay with one role's entry set (or removed with null) by `note`: a new object, the old one untouched. */
export function withEntry(overlay: RoleOverlay, name: string, entry: RoleEntry | null, note: RoleNote): RoleOverlay {
  const roles = { ...overlay.roles };
  const changes = { ...overlay.changes };
  if (entry === null) {
    delete roles[name];
    delete changes[name];
  } else {
    roles[name] = entry;
    changes[name] = note;
  }
  return { roles, changes, updatedAt: note.at, updatedBy: note.by };
}

/** A stored overlay as far as it can be read; anything malformed reads as no overlay. */
export function readOverlay(value: unknown): RoleOverlay {
  if (!isPlainObject(value) || !isPlainObject(value.roles)) return EMPTY_OVERLAY;
  // fromEntries keeps every stored name an own key, `__proto__` included, for validation to judge.
  const roles: Record<string, RoleEntry> = Object.fromEntries(Object.entries(value.roles).filter((e): e is [string, RoleEntry] => isPlainObject(e[1])));
  const changes: Record<string, RoleNote> = Object.fromEntries(
    Object.entries(isPlainObject(value.changes) ? value.changes : {}).flatMap(([name, note]) => (Object.hasOwn(roles, name) && isNote(note) ? [[name, { at: note.at, by: note.by, reason: note.reason }]] : [])),
  );
  return {
    roles,
    changes,
    updatedAt: typeof value.updatedAt === 'number' ? value.updatedAt : null,
    updatedBy: typeof value.updatedBy === 'string' ? value.updatedBy : null,
  };
}

function isNote(value: unknown): value is RoleNote {
  return isPlainObject(value) && typeof value.at === 'number' && typeof value.by === 'string' && typeof value.reason === 'string';
}
