// One simulated provider at run time: its scenario spec, its current faults (replaceable
// while running) and its seeded dice.
import type { IncomingHttpHeaders } from 'node:http';
import { FaultDice, type FaultName, type Faults } from './faults.js';
import type { ProviderSpec } from './scenario.js';

export class SimProvider {
  faults: Faults;
  readonly #dice: FaultDice;
  readonly #keyHeader: string;
  readonly #expected: string | undefined;

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

  reseed(): void {
    this.#dice.reseed();
  }
}
