// The state store's health on /metrics, read at scrape time (nothing per request).
import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../state/index.js';

export function registerStoreMetrics(registry: Registry, store: Store): void {
  const labelNames = ['store'] as const;
  new Gauge({
    name: 'warden_state_degraded',
    help: '1 while the state store serves from its local copy because its backend (Redis, the SQLite file) is unreachable or failing',
    labelNames,
    registers: [registry],
    collect() {
      this.set({ store: store.kind }, store.health().degraded ? 1 : 0);
    },
  });
  new Gauge({
    name: 'warden_state_errors',
    help: 'State store operations that failed since start; the gateway kept serving',
    labelNames,
    registers: [registry],
    collect() {
      this.set({ store: store.kind }, store.health().errors);
    },
  });
  new Gauge({
    name: 'warden_state_pending_writes',
    help: 'State changes and audit events held locally until the store backend takes them',
    labelNames,
    registers: [registry],
    collect() {
      this.set({ store: store.kind }, store.health().pending);
    },
  });
}
