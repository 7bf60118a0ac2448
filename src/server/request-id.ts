// Request ids for answers that arrive without one: unique, UUID-shaped, and cheap. crypto's
// randomUUID() cost about 0.6 µs a request under load (bench profile: its entropy refills
// and formatting); ids need to be unique, not unpredictable. So each process draws 74 random
// bits once and counts in the last 48: a version 8 UUID (RFC 9562's layout for
// implementation-specific ids), distinct across instances by the random part.
import { randomBytes } from 'node:crypto';

/** Until the counter's 48 bits run out, which at a million requests a second takes nine years. */
const COUNTER_LIMIT = 2 ** 48;

export class RequestIds {
  #prefix = '';
  #counter = COUNTER_LIMIT;

  next(): string {
    if (this.#counter >= COUNTER_LIMIT) this.#reseed();
    return this.#prefix + (this.#counter++).toString(16).padStart(12, '0');
  }

  #reseed(): void {
    const b = randomBytes(10).toString('hex');
    // xxxxxxxx-xxxx-8xxx-Vxxx-: version nibble 8, variant bits 10 (8, 9, a or b).
    const variant = ((parseInt(b[15]!, 16) & 0x3) | 0x8).toString(16);
    this.#prefix = `${b.slice(0, 8)}-${b.slice(8, 12)}-8${b.slice(12, 15)}-${variant}${b.slice(16, 19)}-`;
    this.#counter = 0;
  }
}
