// One simulated provider at run time: its scenario spec, its current faults (replaceable
// while running) and its seeded dice.
import { FaultDice, type FaultName, type Faults } from './faults.js';
import type { ProviderSpec } from './scenario.js';

export class SimProvider {
  faults: Faults;
  readonly #dice: FaultDice;
  readonly #authorization: string | undefined;

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

  reseed(): void {
    this.#dice.reseed();
  }
}
