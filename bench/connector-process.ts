/**
 * One connector process of the benchmarks: `connector start` as it runs (startService from the
 * environment the parent passes), silent. Tells the parent its address once it is up.
 * Imported, it gives the parent's side: start such a process, stop it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/index.js';
import { freePort } from '../src/demo/free-port.js';
import { type DemoEnvInput, demoEnv } from '../src/demo/settings.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/service.js';

/** Forks this file on the demo settings (locations as by default) against the given Redis, sandbox and store; `env` wins. */
export async function startConnectorProcess(
  at: Omit<DemoEnvInput, 'port'>,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = fork(new URL('./connector-process.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      ...demoEnv({ ...at, port: await freePort('127.0.0.1') }),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      // The default, not the demo's list of locations (which shows staff the filter at work).
      COLLECT_FROM_LOCATIONS: '',
      ...env,
    },
  });
  await new Promise((ready, reject) => {
    child.once('message', ready);
    child.once('exit', (code) => reject(new Error(`connector process exited (${code})`)));
  });
  return child;
}

export function stopConnectorProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((stopped) => {
    if (child.exitCode !== null) return stopped();
    child.once('exit', () => stopped());
    child.kill('SIGTERM');
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const http = process.env.BENCH_HTTP === 'true';
  const config = loadConfig(process.env);
  const service = await startService(config, {
    logger: createLogger({ level: config.logLevel, format: 'json' }),
    http,
    // As `connector start` runs intake and workers together: the workers in a thread of their own.
    ...(http && process.env.BENCH_ONE_THREAD !== 'true'
      ? { workersThread: { log: { format: 'json', colour: false } } }
      : {}),
    shutdownGraceMs: 2_000,
  });

  process.once('SIGTERM', async () => {
    await service.close();
    process.exit(0);
  });
  process.send?.({ ready: true, url: service.url });
  // The parent asks for the CPU this process has used (µs, every thread), to weigh it per order.
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
}
