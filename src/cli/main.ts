#!/usr/bin/env node
// The `warden` command: start, demo, sim, check-config, canary, inspect.
import { parseArgs } from 'node:util';
import { checkConfig } from './check-config.js';
import { CanaryUsageError, runCanaryOnce } from './canary.js';
import { runDemo } from './demo.js';
import { InspectUsageError, runInspect } from './inspect.js';
import { runSim } from './sim.js';
import { runStart } from './start.js';

const USAGE = `usage: warden <command> [options]

commands:
  start --config FILE [--port N] [--host H]   run the gateway
  demo [--port N]                             gateway + simulated fleet from examples/demo.yaml
  sim --scenario FILE [--port N]              the simulated provider fleet alone
  check-config FILE                           validate a config file; each error names its path
  canary --config FILE --once [--route ID] [--json]
                                              one canary round, evidence per route and probe;
                                              exit 0 all pass, 2 a quality failure, 3 only transport
  inspect --checks LIST [--language xx] [--schema FILE] [--expect TEXT]... [--min-length N] [--json]
                                              quality checks on a reply read from stdin;
                                              exit 0 pass, 2 fail, 3 inconclusive
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: 'string', short: 'c' },
      scenario: { type: 'string', short: 's' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      checks: { type: 'string' },
      language: { type: 'string' },
      schema: { type: 'string' },
      expect: { type: 'string', multiple: true },
      'min-length': { type: 'string' },
      json: { type: 'boolean' },
      once: { type: 'boolean' },
      route: { type: 'string' },
    },
  });
  if (values.help || !command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }
  const port = values.port === undefined ? undefined : parsePort(values.port);
  switch (command) {
    case 'start':
      if (!values.config) return usageError('start needs --config FILE');
      return runStart(values.config, port, values.host);
    case 'demo':
      return runDemo(port);
    case 'sim':
      if (!values.scenario) return usageError('sim needs --scenario FILE');
      return runSim(values.scenario, port);
    case 'check-config': {
      const file = positionals[0] ?? values.config;
      if (!file) return usageError('check-config needs a FILE');
      return checkConfig(file);
    }
    case 'canary':
      if (!values.config) return usageError('canary needs --config FILE');
      if (!values.once) return usageError('canary runs one round: pass --once (the gateway itself runs rounds on its interval)');
      try {
        return await runCanaryOnce(values.config, values.route, values.json === true);
      } catch (e) {
        if (e instanceof CanaryUsageError) return usageError(e.message);
        throw e;
      }
    case 'inspect':
      try {
        return await runInspect({ checks: values.checks, language: values.language, schema: values.schema, expect: values.expect, minLength: values['min-length'], json: values.json });
      } catch (e) {
        if (e instanceof InspectUsageError) return usageError(e.message);
        throw e;
      }
    default:
      return usageError(`unknown command "${command}"`);
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got "${text}"`);
  return port;
}

class UsageError extends Error {}

function usageError(message: string): number {
  process.stderr.write(`warden: ${message}\n\n${USAGE}`);
  return 64;
}

main(process.argv.slice(2)).then(
  (code) => {
    // Long-running commands resolve to -1 and keep the process alive until a signal.
    if (code >= 0) process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      usageError((e as Error).message);
      process.exitCode = 64;
      return;
    }
    // A command that failed half-way (the fleet up, the gateway not) must not linger on its
    // open sockets: exit once the message is out.
    process.stderr.write(`warden: ${(e as Error).message ?? String(e)}\n`, () => process.exit(1));
  },
);
