#!/usr/bin/env node
// `npm run test:cluster`: starts a throwaway three-master Redis Cluster on loopback ports with
// redis-server and redis-cli, runs the flow tests that touch every kind of key against it
// (registration, status sync, the request budget, the records), and tears it down.
// Extra arguments pick other test files: `npm run test:cluster -- test/flow/cancellation.test.ts`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DEFAULT_TESTS = [
  'test/flow/registration.test.ts',
  'test/flow/status-sync.test.ts',
  'test/queue/partner-budget.test.ts',
  'test/queue/budget-workers.test.ts',
  'test/records/order-records.test.ts',
  'test/records/redis-slots.test.ts',
];

for (const tool of ['redis-server', 'redis-cli']) {
  if (spawnSync('which', [tool]).status !== 0) {
    console.error(`${tool} is not installed (Debian/Ubuntu: apt-get install redis-server).`);
    process.exit(1);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'connector-cluster-'));
const ports = await freePorts(3);
const servers = ports.map((port) =>
  spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      '5000',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  ),
);

let status = 1;
try {
  for (const port of ports) await untilAnswers(port);
  const create = spawnSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ],
    { encoding: 'utf8' },
  );
  if (create.status !== 0)
    throw new Error(`redis-cli --cluster create failed:\n${create.stdout}${create.stderr}`);
  for (const port of ports) await untilClusterOk(port);

  const url = `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
  console.log(`Redis Cluster of three masters at ${url}`);
  const tests = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_TESTS;
  const run = spawnSync('npx', ['vitest', 'run', ...tests], {
    stdio: 'inherit',
    env: { ...process.env, REDIS_URL: url },
  });
  status = run.status ?? 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const server of servers) server.kill('SIGTERM');
  await Promise.all(
    servers.map(
      (s) => new Promise((resolve) => (s.exitCode !== null ? resolve() : s.once('exit', resolve))),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);

async function freePorts(count) {
  const found = [];
  while (found.length < count) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    // The cluster bus listens on port + 10000: keep both under 65536.
    if (port < 55_000 && !found.includes(port)) found.push(port);
  }
  return found;
}

function cli(port, ...args) {
  return spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    encoding: 'utf8',
  });
}

async function waitFor(what, check, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function untilAnswers(port) {
  return waitFor(
    `redis-server on port ${port} did not answer`,
    () => cli(port, 'ping').stdout.trim() === 'PONG',
  );
}

function untilClusterOk(port) {
  return waitFor(`the cluster was not ready on port ${port}`, () =>
    cli(port, 'cluster', 'info').stdout.includes('cluster_state:ok'),
  );
}
