// `warden canary --config FILE --once [--route ID] [--json]`: one round from the command
// line, to reproduce what a route does. It changes no routing and keeps no state: the
// store is in memory. Exit 0 all pass, 2 a quality failure, 3 only transport failures; a
// `--route` the round cannot probe is a usage error (64).
import { parseRouteId } from '../catalog/index.js';
import { defaultCanaryConfig, isConfigError, loadConfig, type WardenConfig } from '../config/index.js';
import type { RoundReport } from '../canary/index.js';
import { createGateway } from '../gateway.js';
import { MemoryStore } from '../state/index.js';
import { createLogger } from '../telemetry/index.js';

export async function runCanaryOnce(file: string, route: string | undefined, json: boolean): Promise<number> {
  let config;
  try {
    config = loadConfig(file);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  // Without a canary section every model is watched, with the seeds' defaults.
  const canaryConfig = config.canary ?? defaultCanaryConfig(Object.keys(config.models));
  // The route's model is watched for this round, whether the config watches it or not.
  const watch = route === undefined ? canaryConfig.watch : [...new Set([...canaryConfig.watch, routeModel(config, route)])];
  const gateway = createGateway(
    { ...config, canary: { ...canaryConfig, watch }, notify: { ...config.notify, webhooks: [] } },
    { store: new MemoryStore(), canarySchedule: false, processMetrics: false, log: createLogger({ level: process.env.WARDEN_LOG_LEVEL ?? 'error', destination: process.stderr }) },
  );
  try {
    await gateway.discover();
    if (route !== undefined && !gateway.canary!.routes().some((r) => r.id === route)) {
      const model = routeModel(config, route);
      const routes = gateway.catalog.get(model)?.routes.map((r) => r.id) ?? [];
      throw new CanaryUsageError(`--route "${route}" is not a route of ${model} (its routes now: ${routes.join(', ') || 'none'})`);
    }
    const report = await gateway.canary!.runRound(route);
    process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : describe(report));
    return exitCode(report);
  } finally {
    await gateway.close();
  }
}

/** A `--route` the round cannot probe: the command prints it with the usage and exits 64. */
export class CanaryUsageError extends Error {}

/** The configured model a `--route` names. */
function routeModel(config: WardenConfig, route: string): string {
  if (route === '') throw new CanaryUsageError('--route is empty: give a route id, or leave it out to probe every watched route');
  const parts = parseRouteId(route);
  if (!parts) throw new CanaryUsageError(`--route "${route}" is not a route id: expected <model>@<provider> or <model>@<provider>/<endpoint>`);
  if (!config.models[parts.model]) throw new CanaryUsageError(`--route "${route}" names no configured model (models: ${Object.keys(config.models).join(', ')})`);
  return parts.model;
}

export function exitCode(report: RoundReport): number {
  const verdicts = report.routes.filter((r) => !r.control).map((r) => r.round.verdict);
  if (verdicts.includes('fail')) return 2;
  if (verdicts.includes('transport')) return 3;
  return 0;
}

function describe(report: RoundReport): string {
  const lines = [`canary round at ${new Date(report.at).toISOString()} (${report.routes.length} routes, ~${report.tokensSpent} tokens)`];
  for (const alert of report.alerts) lines.push(`  ! ${alert}`);
  for (const r of report.routes) {
    lines.push(`${r.round.verdict.toUpperCase().padEnd(12)} ${r.route}${r.control ? '  (positive control)' : ''}`);
    for (const p of r.round.probes) {
      const e = p.evidence;
      const facts = [
        e.firstTokenMs != null ? `first token ${e.firstTokenMs} ms` : '',
        e.snippet ? JSON.stringify(e.snippet.slice(0, 80)) : '',
        e.parseError ? `parse error: ${e.parseError}` : '',
        e.error ? `error: ${e.error}` : '',
        e.confirmations ? `confirmations: ${e.confirmations.join(',')}` : '',
      ].filter(Boolean);
      lines.push(`    ${p.kind.padEnd(9)}${p.language ? `[${p.language}]` : '    '} ${p.verdict.padEnd(12)} ${p.reason}${p.invalidated ? ' (invalidated)' : ''}  ${facts.join('  ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
