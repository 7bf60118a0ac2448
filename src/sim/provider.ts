// One simulated provider at run time: its scenario spec, its current faults (replaceable
// while running) and its seeded dice.
import { FaultDice, type FaultName, type Faults } from './faults.js';
import type { ProviderSpec } from './scenario.js';

export class SimProvider {
  faults: Faults;
  readonly #dice: FaultDice;
  readonly #authorization: string | undefined;
  /** Streams waiting for releaseStreams() (scenario `holdStreams`). */
  readonly #held = new Set<() => void>();

  constructor(
    readonly spec: ProviderSpec,
    scenarioSeed: number,
  ) {
    this.faults = { ...spec.faults };
    this.#dice = new FaultDice(scenarioSeed, spec.name);
    this.#authorization = spec.apiKey ? `Bearer ${spec.apiKey}` : undefined;
  }

  get name(): string {
    return this.spec.name;
  }

  serves(model: string): boolean {
    return this.spec.models.includes(model);
  }

  /** One roll per attempt, even when the fault is forced, so forcing does not shift the sequence. */
  roll(): FaultName | null {
    return this.#dice.roll(this.faults);
  }

  authorizes(header: string | undefined): boolean {
    return this.#authorization === undefined || header === this.#authorization;
  }

  /** Holds a stream until released; `resume` goes on with it. Returns the hold's removal (the client left). */
  hold(resume: () => void): () => void {
    this.#held.add(resume);
    return () => this.#held.delete(resume);
  }

  /** Lets every stream held now go on to its end; returns how many there were. */
  releaseStreams(): number {
    const held = [...this.#held];
    this.#held.clear();
    for (const resume of held) resume();
    return held.length;
  }

  reseed(): void {
    this.#dice.reseed();
  }
}
