// A store log that keeps what it is told, for tests that check what an operator would read
// (one line per outage, what it names, that no secret is in it).
import type { RedisStoreLog } from '../../src/state/index.js';

export interface Logged {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

export function recorder(): RedisStoreLog & { lines: Logged[] } {
  const lines: Logged[] = [];
  const keep = (level: Logged['level']) => (obj: object, msg: string) => void lines.push({ level, obj: { ...obj }, msg });
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}
