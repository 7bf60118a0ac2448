import { isConfigError, loadConfig } from '../config/index.js';

export function checkConfig(file: string): number {
  try {
    const config = loadConfig(file);
    const count = (o: object) => Object.keys(o).length;
    process.stdout.write(`${file}: ok (${count(config.providers)} providers, ${count(config.models)} models, ${count(config.roles)} roles)\n`);
    return 0;
  } catch (e) {
    if (!isConfigError(e)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
}
