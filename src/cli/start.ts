import { isConfigError, loadConfig } from '../config/index.js';
import { openGateway } from '../gateway.js';
import { closeOnSignal, KEEP_RUNNING } from './lifecycle.js';

export async function runStart(file: string, port?: number, host?: string): Promise<number> {
  let config;
  try {
    config = loadConfig(file);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    process.stderr.write(`warden: refusing to start, the config has errors\n${e.message}\n`);
    return 1;
  }
  const gateway = await openGateway(config);
  await gateway.listen(port, host);
  closeOnSignal(() => gateway.close());
  return KEEP_RUNNING;
}
