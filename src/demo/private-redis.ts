import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.js';
import { probeRedis } from './redis-probe.js';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** A Redis to use: the one at REDIS_URL, or a private redis-server this process started. */
export interface LocalRedis {
  url: string;
  /** True when this process started it; it then lives no longer than this process. */
  isPrivate: boolean;
  /** Stops a private server and waits until it is gone; does nothing to a Redis found running. */
  stop(): Promise<void>;
}

/** Nothing answers and nothing can be started. The message is the one line to show. */
export class NoRedisError extends Error {
  override name = 'NoRedisError';
}

/** redis-server is installed but did not come up. */
export class PrivateRedisError extends Error {
  override name = 'PrivateRedisError';
}

export interface LocalRedisOptions {
  /** Where to look first; default redis://127.0.0.1:6379. */
  url?: string | undefined;
  /** Where to look for redis-server; default the PATH of this process. */
  path?: string | undefined;
  /** How long a started server may take to answer PING. */
  startTimeoutMs?: number;
}

/**
 * The Redis at `url` if it answers; otherwise a private `redis-server` on a free loopback port,
 * without persistence, in a temporary directory.
 */
export async function localRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  const url = options.url || DEFAULT_REDIS_URL;
  const problem = await probeRedis(url, 1_000);
  if (problem === null) return { url, isPrivate: false, stop: async () => {} };

  const server = findOnPath('redis-server', options.path ?? process.env.PATH ?? '');
  if (!server) {
    throw new NoRedisError(
      `Redis does not answer at ${url} (${problem}) and redis-server is not installed to start ` +
        'a private one: install it (Debian/Ubuntu: sudo apt-get install redis-server) or set ' +
        'REDIS_URL to a Redis that answers.',
    );
  }
  // The free port can be taken between choosing and binding it; another one then does.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrivate(server, options.startTimeoutMs ?? 10_000);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

class PortTakenError extends PrivateRedisError {}

/**
 * Runs redis-server under a small shell that holds the other end of a pipe from this process:
 * when this process ends in any way (SIGKILL included) the pipe closes and the shell stops the
 * server and removes its directory. The server gets its own process group, so a Ctrl-C meant for
 * this process (which may still want Redis for its own cleanup) does not reach it.
 */
const GUARD = [
  '"$@" </dev/null & server=$!',
  'exec 3<&0',
  '{ while read -r _ <&3; do :; done; kill "$server" 2>/dev/null; } &',
  'wait "$server"; status=$?',
  'rm -rf -- "$PRIVATE_REDIS_DIR"',
  'exit "$status"',
].join('\n');

async function startPrivate(server: string, startTimeoutMs: number): Promise<LocalRedis> {
  const port = await freePort('127.0.0.1');
  const url = `redis://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'connector-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(
    '/bin/sh',
    ['-c', GUARD, 'private-redis', server, ...args, '--daemonize', 'no', '--dir', dir],
    {
      cwd: dir,
      env: { ...process.env, PRIVATE_REDIS_DIR: dir },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      gone = true;
      resolve();
    };
    child.once('exit', done);
    child.once('error', (error) => {
      collect(Buffer.from(error.message));
      done();
    });
  });

  const stop = async () => {
    if (!gone) {
      child.ref();
      // End of input is what the guard waits for; SIGKILL only if the server ignores it.
      child.stdin?.end();
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + startTimeoutMs;
  while ((await probeRedis(url, 500)) !== null) {
    if (gone || Date.now() > deadline) {
      await stop();
      const last = output.trim().split('\n').at(-1) ?? '';
      const reason = gone ? `it exited: ${last}` : `no PONG within ${startTimeoutMs} ms`;
      const Failure = /address already in use/i.test(output) ? PortTakenError : PrivateRedisError;
      throw new Failure(`redis-server (${server}) did not start on 127.0.0.1:${port}: ${reason}`);
    }
    await sleep(50);
  }
  // A forgotten stop() must not keep this process alive; the guard stops the server at exit.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as Socket | null)?.unref();
  return { url, isPrivate: true, stop };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function findOnPath(command: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
