// Waits for a condition that another process or connection brings about (a Redis notice, a
// child's log line), checking it after each turn of the event loop and a few ms apart. The
// deadline is a hang guard, or the requirement itself where the issue names one.
import { setTimeout as sleep } from 'node:timers/promises';

export async function until<T>(check: () => T | Promise<T>, what: string, withinMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(5);
  }
}
