// Which parts of a reloaded config a running gateway can take as they are, and which only a
// restart applies (they shape connections, the catalog or the store the gateway was built on).
import { createHash } from 'node:crypto';
import { Secret } from './secret.js';
import type { WardenConfig } from './schema.js';

export type Section = keyof WardenConfig;

/** Applied to the running gateway by a reload. `canary` only while it stays on (a new interval reschedules its rounds). */
export const HOT_SECTIONS: readonly Section[] = ['roles', 'blocklist', 'breaker', 'canary'];

/** Kept from the running config by a reload: a change is logged and audited as needing a restart. */
export const RESTART_SECTIONS: readonly Section[] = ['server', 'state', 'providers', 'models', 'timeouts', 'notify', 'telemetry'];

export interface SectionChanges {
  hot: Section[];
  restart: Section[];
}

export function changedSections(prev: WardenConfig, next: WardenConfig): SectionChanges {
  const changed = (s: Section) => fingerprint(prev[s]) !== fingerprint(next[s]);
  const hot = HOT_SECTIONS.filter(changed);
  const restart = RESTART_SECTIONS.filter(changed);
  // Whether there is a canary at all is set at start (its runner and scheduler); its rules and interval reload.
  if (hot.includes('canary') && (!prev.canary || !next.canary)) {
    hot.splice(hot.indexOf('canary'), 1);
    restart.push('canary');
  }
  return { hot, restart };
}

/** The next config with what a reload cannot apply taken from the running one. */
export function reloadable(prev: WardenConfig, next: WardenConfig, restart: readonly Section[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...next };
  for (const s of restart) out[s] = prev[s];
  return out;
}

/** A comparable text of a section; a secret counts by a digest of its value, which is never printed. */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    return raw instanceof Secret ? `secret:${createHash('sha256').update(raw.reveal()).digest('hex')}` : v;
  }) ?? '';
}
