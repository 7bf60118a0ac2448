// The config's value types: durations, secrets (a key, a Redis URL with its password, a
// webhook URL that is its own credential) and the names that key its sections. schema.ts
// builds the document's shape out of them.
import { z } from 'zod';
import { parseDuration } from './duration.js';
import { Secret } from './secret.js';

export const duration = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 250ms, 30s, 10m, 1d; got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return ms;
  });

// A Secret is accepted as it is, so a parsed config can be parsed again (the effective config
// of runtime role changes is the parsed base with new roles, validated by this same schema).
const revealed = (value: unknown) => (value instanceof Secret ? value.reveal() : value);
export const secret = z.preprocess(revealed, z.string()).transform((value) => new Secret(value));
// A Redis URL may carry a password, so it is a Secret too (GET /admin/config/effective shows
// the whole config); checked as a URL here so a bad port is refused at its path.
export const redisUrl = z.preprocess(revealed, z.url({ protocol: /^rediss?$/, error: 'expected a redis:// URL: redis://[:password@]host:port[/db]' })).transform((value) => new Secret(value));
// A webhook URL is often its own credential (Slack's and Teams' carry their token in the path).
export const webhookUrl = z.preprocess(revealed, z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })).transform((value) => new Secret(value));

// Names key plain objects (config.models[name], the overlay's roles), so one that every object
// already carries (`constructor`, `toString`, `__proto__`) would read through to Object.prototype.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const INHERITED = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Why `candidate` cannot name a provider, model, role or admin token; null when it can. */
export function nameProblem(candidate: string): string | null {
  if (!NAME.test(candidate)) return `name "${candidate}": expected letters, digits, ".", "_" or "-", starting with a letter or digit`;
  if (INHERITED.has(candidate)) return `name "${candidate}": every JavaScript object carries it (constructor, prototype, toString, …); choose another`;
  return null;
}

export const name = z.string().superRefine((value, ctx) => {
  const problem = nameProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A record keyed by names. zod skips a `__proto__` key without a word, so a role of that name
 * would vanish from a config that checks "ok"; it is refused here like any other bad name.
 */
export function named<T extends z.ZodType>(value: T) {
  return z.preprocess((input, ctx) => {
    if (input !== null && typeof input === 'object' && Object.hasOwn(input, '__proto__')) {
      ctx.addIssue({ code: 'custom', path: ['__proto__'], message: nameProblem('__proto__')!, input });
    }
    return input;
  }, z.record(name, value));
}
