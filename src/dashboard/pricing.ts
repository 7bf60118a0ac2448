// Which models have a price. Cost is counted from usage × `profile.price` only (see
// src/server/request-record.ts), so usage on a model without a price adds nothing: a total of
// $0 then means "not counted", not "free", and the page must say which it is.
import type { DashboardRoles } from './roles.js';

export interface CostBasis {
  /** Every configured model, and those of them with a configured price. */
  models: readonly string[];
  priced: ReadonlySet<string>;
  /** The models each role may be answered by: its chain and its escalation model. */
  chains: Readonly<Record<string, readonly string[]>>;
}

type ModelPrices = Readonly<Record<string, { profile?: { price?: unknown } | undefined }>>;

export function costBasis(models: ModelPrices, roles: DashboardRoles): CostBasis {
  const names = Object.keys(models).sort();
  return {
    models: names,
    priced: new Set(names.filter((name) => models[name]?.profile?.price !== undefined)),
    chains: Object.fromEntries(roles.roles.map((r) => [r.name, r.escalation === null ? r.models : [...r.models, r.escalation]])),
  };
}

/** The models among `models` whose usage no price turns into cost, each named once. */
export function unpricedAmong(basis: CostBasis, models: readonly string[]): string[] {
  return [...new Set(models)].filter((m) => !basis.priced.has(m));
}
