import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/demo/free-port.js';
import { probeRedis } from '../../src/demo/redis-probe.js';

/**
 * A redis-server of the scenario's own on a free loopback port, that the scenario may shut down
 * and start again on the same port: with its data (AOF on, same directory) or empty.
 */
export interface ScenarioRedis {
  readonly url: string;
  readonly port: number;
  /** SHUTDOWN (with AOF, the log is flushed first); resolves once the process is gone. */
  shutdown(): Promise<void>;
  /** Starts again on the same port; `empty` wipes the directory first (the data is lost). */
  start(options?: { empty?: boolean }): Promise<void>;
  /** Stops the server for good and removes its directory. */
  close(): Promise<void>;
}

export async function startScenarioRedis(options: { aof: boolean }): Promise<ScenarioRedis> {
  const port = await freePort('127.0.0.1');
  const url = `redis://127.0.0.1:${port}`;
  let dir = mkdtempSync(join(tmpdir(), 'reliability-redis-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async ({ empty = false } = {}) => {
    if (empty) {
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'reliability-redis-'));
    }
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', ''];
    args.push('--appendonly', options.aof ? 'yes' : 'no', '--dir', dir);
    const server = spawn('redis-server', args, { stdio: 'ignore' });
    child = server;
    exited = new Promise((resolve) => server.once('exit', () => resolve()));
    const deadline = Date.now() + 10_000;
    // With AOF on, Redis answers LOADING until the log is read back: wait for a real PONG.
    while ((await probeRedis(url, 500)) !== null) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${url}`);
      await sleep(50);
    }
  };

  const shutdown = async () => {
    if (!child || child.exitCode !== null) return;
    // SIGTERM is SHUTDOWN: with AOF on, Redis fsyncs the log before it exits.
    child.kill('SIGTERM');
    await exited;
    child = undefined;
  };

  await start();
  return {
    url,
    port,
    shutdown,
    start,
    async close() {
      await shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
