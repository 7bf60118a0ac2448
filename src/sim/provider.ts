// One simulated provider at run time: its scenario spec, its current faults (replaceable
// while running) and its seeded dice.
import type { IncomingHttpHeaders } from 'node:http';
import { FaultDice, type FaultName, type Faults } from './faults.js';
import type { ProviderSpec } from './scenario.js';
import { endpointTag } from './catalog.js';
import type { RoutingIdentity } from './openrouter.js';

export class SimProvider {
  faults: Faults;
  readonly #dice: FaultDice;
  readonly #keyHeader: string;
  readonly #expected: string | undefined;
  /** Streams waiting for releaseStreams() (scenario `holdStreams`). */
  readonly #held = new Set<() => void>();
  #identity: RoutingIdentity | undefined;

  constructor(
    readonly spec: ProviderSpec,
    scenarioSeed: number,
  ) {
    this.faults = { ...spec.faults };
    this.#dice = new FaultDice(scenarioSeed, spec.name);
    this.#keyHeader = spec.keyHeader ?? 'authorization';
    this.#expected = !spec.apiKey ? undefined : spec.keyHeader ? spec.apiKey : `Bearer ${spec.apiKey}`;
  }

  get name(): string {
    return this.spec.name;
  }

  /** How the aggregator's provider preferences name this provider. */
  get identity(): RoutingIdentity {
    return (this.#identity ??= { name: this.spec.name, slug: this.spec.slug, tag: endpointTag(this.spec) });
  }

  serves(model: string): boolean {
    return this.spec.models.includes(model);
  }

  /** One roll per attempt, even when the fault is forced, so forcing does not shift the sequence. */
  roll(): FaultName | null {
    return this.#dice.roll(this.faults);
  }

  authorizes(headers: IncomingHttpHeaders): boolean {
    return this.#expected === undefined || headers[this.#keyHeader] === this.#expected;
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
