// One cell per label set, found by walking one Map per label value: a lookup builds no string
// and hashes nothing but the values (interned config names). Shared by the batched metrics.
export class LabelCells<C> {
  readonly #root = new Map<string, unknown>();
  readonly #all: C[] = [];

  constructor(private readonly make: (labels: readonly string[]) => C) {}

  get(labels: readonly string[]): C {
    let node = this.#root;
    for (let i = 0; i < labels.length - 1; i++) {
      let next = node.get(labels[i]!) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        node.set(labels[i]!, next);
      }
      node = next;
    }
    const last = labels[labels.length - 1]!;
    let cell = node.get(last) as C | undefined;
    if (cell === undefined) {
      cell = this.make([...labels]);
      node.set(last, cell);
      this.#all.push(cell);
    }
    return cell;
  }

  /** Every cell made so far, in the order they were first asked for. */
  get all(): readonly C[] {
    return this.#all;
  }
}
