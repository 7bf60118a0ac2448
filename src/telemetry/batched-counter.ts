// A prom-client Counter whose increments are tallied in plain numbers and handed over at
// scrape time: labels() hashes its label values on every call, which the request path
// would otherwise pay several times per request.
import { Counter, type Registry } from 'prom-client';
import { LabelCells } from './label-cells.js';

interface Cell {
  labels: readonly string[];
  pending: number;
  /** Everything handed over so far: with `pending`, the running total (for derived gauges). */
  flushed: number;
}

export class BatchedCounter {
  readonly #counter: Counter;
  readonly #cells = new LabelCells<Cell>((labels) => ({ labels, pending: 0, flushed: 0 }));

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
    this.#cells.get(labels).pending += value;
  }

  /** Running totals per label set, read at scrape time by gauges derived from this counter. */
  forEach(visit: (labels: readonly string[], total: number) => void): void {
    for (const cell of this.#cells.all) visit(cell.labels, cell.flushed + cell.pending);
  }

  #flush(): void {
    for (const cell of this.#cells.all) {
      if (cell.pending === 0) continue;
      this.#counter.labels(...cell.labels).inc(cell.pending);
      cell.flushed += cell.pending;
      cell.pending = 0;
    }
  }
}
