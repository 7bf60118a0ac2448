// A throwaway redis-server for tests: a real process on 127.0.0.1, stopped and restarted on
// the same port to play an outage. By default it keeps nothing; `persist` gives it an
// append-only file in a temporary folder, as the README asks of a production Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Why Redis tests cannot run here, or null when a redis-server binary is on the PATH. */
export function redisMissing(): string | null {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error ? `no redis-server: ${probe.error.message} (install the redis-server package)` : null;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the process (SIGKILL, as a crash would) and waits for it to go. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty unless persisted) and waits until it answers PING. */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as a hung or cut-off Redis. */
  pause(): void;
  /** Lets a paused process run again (SIGCONT). */
  resume(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const dir = options.persist ? mkdtempSync(join(tmpdir(), 'warden-redis-')) : null;
  const persistence = dir ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''] : ['--save', '', '--appendonly', 'no'];
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      child = null;
    },
    async start() {
      child = spawn('redis-server', ['--port', String(port), ...persistence, '--bind', '127.0.0.1'], { stdio: 'ignore' });
      await untilPong(port, child);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async close() {
      await server.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const address = srv.address();
  srv.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

async function untilPong(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (await ping(port)) return;
    await sleep(25);
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
