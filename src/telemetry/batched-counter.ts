// A prom-client Counter whose increments are tallied in plain numbers and handed over at
// scrape time: labels() hashes its label values on every call, which the request path
// would otherwise pay several times per request.
import { Counter, type Registry } from 'prom-client';

interface Cell {
  labels: string[];
  pending: number;
  /** Everything handed over so far: with `pending`, the running total (for derived gauges). */
  flushed: number;
}

export class BatchedCounter {
  readonly #counter: Counter;
  readonly #root = new Map<string, unknown>();
  readonly #cells: Cell[] = [];

  constructor(options: { name: string; help: string; labelNames: string[]; registry: Registry }) {
    this.#counter = new Counter({
      name: options.name,
      help: options.help,
      labelNames: options.labelNames,
      registers: [options.registry],
      collect: () => this.#flush(),
    });
  }

  inc(labels: readonly string[], value = 1): void {
    this.#cell(labels).pending += value;
  }

  /** Running totals per label set, read at scrape time by gauges derived from this counter. */
  forEach(visit: (labels: readonly string[], total: number) => void): void {
    for (const cell of this.#cells) visit(cell.labels, cell.flushed + cell.pending);
  }

  #cell(labels: readonly string[]): Cell {
    let node: Map<string, unknown> = this.#root;
    for (let i = 0; i < labels.length - 1; i++) {
      let next = node.get(labels[i]!) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        node.set(labels[i]!, next);
      }
      node = next;
    }
    const last = labels[labels.length - 1]!;
    let cell = node.get(last) as Cell | undefined;
    if (!cell) {
      cell = { labels: [...labels], pending: 0, flushed: 0 };
      node.set(last, cell);
      this.#cells.push(cell);
    }
    return cell;
  }

  #flush(): void {
    for (const cell of this.#cells) {
      if (cell.pending === 0) continue;
      this.#counter.labels(...cell.labels).inc(cell.pending);
      cell.flushed += cell.pending;
      cell.pending = 0;
    }
  }
}
