// `warden demo`: the simulated fleet and a gateway in front of it, no keys needed.
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/index.js';
import { openGateway } from '../gateway.js';
import { loadScenario, startFleet } from '../sim/index.js';
import { createLogger } from '../telemetry/index.js';
import { closeOnSignal, KEEP_RUNNING } from './lifecycle.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

export async function runDemo(port = 8787): Promise<number> {
  const fleet = await startFleet({ scenario: loadScenario(`${EXAMPLES}fleet-demo.yaml`), port: port === 0 ? 0 : port + 1 });
  process.env.WARDEN_SIM_URL = fleet.url;
  const config = loadConfig(`${EXAMPLES}demo.yaml`);
  const gateway = await openGateway(config, { log: createLogger({ level: process.env.WARDEN_LOG_LEVEL ?? 'warn' }) });
  const url = await gateway.listen(port);
  // The demo's built-in token is shown; a token of the user's own (WARDEN_ADMIN_TOKEN) never is.
  const token = process.env.WARDEN_ADMIN_TOKEN ? '$WARDEN_ADMIN_TOKEN' : 'demo-admin';
  const routes = gateway.catalog.routes().map((r) => `    ${r.id}${gateway.blocklist.isBlocked(r.id) ? '  (blocked: built-in)' : ''}`);
  process.stdout.write(`Warden demo
  gateway:          ${url}/v1   (OpenAI-compatible; no key needed on 127.0.0.1)
  metrics:          ${url}/metrics
  dashboard:        ${url}/dashboard   (admin token: ${token})
  admin API:        ${url}/admin/routes   (Authorization: Bearer ${token})
  canary:           every ${Math.round((config.canary?.interval ?? 0) / 1000)} s over ${config.canary?.watch.join(', ')}; run a round now:
                    curl -s -X POST ${url}/admin/canary/run -H 'authorization: Bearer ${token}'
  simulated fleet:  ${fleet.url}  (stats: ${fleet.url}/sim/stats)
  roles:            ${Object.keys(config.roles).join(', ')}
  routes:
${routes.join('\n')}

Try:
  curl -s ${url}/v1/chat/completions -H 'content-type: application/json' \\
    -d '{"model":"chat","messages":[{"role":"user","content":"Hello! How are you today?"}]}'

Ctrl-C stops the demo.
`);
  closeOnSignal(async () => {
    await gateway.close();
    await fleet.close();
  });
  return KEEP_RUNNING;
}
