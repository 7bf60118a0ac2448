import { loadScenario, startFleet } from '../sim/index.js';
import { closeOnSignal, KEEP_RUNNING } from './lifecycle.js';

export async function runSim(file: string, port = 8788): Promise<number> {
  const fleet = await startFleet({ scenario: loadScenario(file), port });
  process.stdout.write(`simulated fleet on ${fleet.url}\n  OpenRouter-style API: ${fleet.openrouterBaseUrl}\n  stats: ${fleet.url}/sim/stats\n`);
  closeOnSignal(() => fleet.close());
  return KEEP_RUNNING;
}
