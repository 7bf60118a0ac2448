import { configDigest, isConfigError, loadConfig, watchConfig } from '../config/index.js';
import { openGateway } from '../gateway.js';
import { closeOnSignal, KEEP_RUNNING } from './lifecycle.js';

export async function runStart(file: string, port?: number, host?: string): Promise<number> {
  let config;
  // Taken first: a save while the gateway starts is then reloaded once the watch begins.
  const loaded = configDigest(file);
  try {
    config = loadConfig(file);
  } catch (e) {
    if (!isConfigError(e)) throw e;
    process.stderr.write(`warden: refusing to start, the config has errors\n${e.message}\n`);
    return 1;
  }
  const gateway = await openGateway(config);
  // SIGHUP or a saved change to the file reloads it; an invalid file is refused (audited) and the
  // running config stays. Set up before listening: an unhandled SIGHUP would end the process.
  const watch = watchConfig({ file, loaded, reload: (trigger) => void gateway.reload(() => loadConfig(file), trigger) });
  await gateway.listen(port, host);
  closeOnSignal(() => {
    // Without a listener, Node's default for SIGHUP is to end the process at once: a config
    // agent reloading during a rollout's drain would cut every request in flight and skip the
    // store's last writes. The shutdown ignores it instead, listening before the watch's own
    // listener goes so that there is no moment without one.
    process.on('SIGHUP', () => process.stderr.write('warden: SIGHUP while shutting down: no reload\n'));
    watch.close();
    return gateway.close();
  });
  return KEEP_RUNNING;
}
