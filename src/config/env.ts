// `${VAR}` and `${VAR:-fallback}` in any string of the config read the environment. A
// reference to an unset variable without a fallback is a config error at that path.
import type { ConfigIssue, ConfigPath } from './errors.js';
import { formatPath } from './errors.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Environment = Readonly<Record<string, string | undefined>>;

export function interpolate(value: unknown, env: Environment, issues: ConfigIssue[], path: ConfigPath = []): unknown {
  if (typeof value === 'string') return interpolateString(value, env, issues, path);
  if (Array.isArray(value)) return value.map((item, i) => interpolate(item, env, issues, [...path, i]));
  if (value && typeof value === 'object') {
    // fromEntries, not assignment: a `__proto__` key stays a key (for validation to refuse) instead of setting the prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env, issues, [...path, key])]));
  }
  return value;
}

function interpolateString(text: string, env: Environment, issues: ConfigIssue[], path: ConfigPath): string {
  if (!text.includes('${')) return text;
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    // Set but empty counts as missing (a blank key is never what was meant), and says so.
    issues.push({ path: formatPath(path), segments: path, message: `environment variable ${name} is ${found === undefined ? 'not set' : 'set but empty'}` });
    return '';
  });
}
