// Checks that fail in a second rather than after minutes of measuring: tools, build, and
// whether Warden accepts the bench's config (its schema has limits, e.g. on connections).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function preflight(wardenCli: string, wardenConfig: string, wardenUnderTest: boolean): void {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed: apt-get install wrk');
  if (spawnSync('taskset', ['--version']).error) throw new Error('taskset is not installed: apt-get install util-linux');
  if (!existsSync(wardenCli)) throw new Error(`${wardenCli} is missing: build first (npm run build)`);
  if (!wardenUnderTest) return;
  const check = spawnSync(process.execPath, [wardenCli, 'check-config', wardenConfig], {
    encoding: 'utf8',
    timeout: 30_000,
    // Any loopback URL will do: check-config validates, it does not connect.
    env: { ...process.env, WARDEN_SIM_URL: 'http://127.0.0.1:9' },
  });
  if (check.status !== 0) {
    throw new Error(`Warden rejects the bench config ${wardenConfig}:\n${check.stdout}${check.stderr}`);
  }
}
