// A value read from the environment that must never reach a log, an error or an API answer.
// Every way of turning it into text yields a placeholder; only `reveal()` gives the value,
// and only the upstream adapters call it, to build an Authorization header and the provider's
// own headers.
import { createHash, timingSafeEqual } from 'node:crypto';
import { inspect } from 'node:util';

const REDACTED = '[secret]';

export class Secret {
  readonly #value: string;
  #digest: Buffer | null = null;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  /** Compares without exposing the value, in time that does not depend on where they differ. */
  equals(candidate: string): boolean {
    this.#digest ??= createHash('sha256').update(this.#value).digest();
    return timingSafeEqual(createHash('sha256').update(candidate).digest(), this.#digest);
  }
  get isEmpty(): boolean {
    return this.#value.length === 0;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}
