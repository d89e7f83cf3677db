import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budgetKeyPattern, scanKeys } from '../../src/demo/cleanup.js';
import { DEMO_SETTINGS_FILE } from '../../src/demo/cli-settings.js';
import { probeRedis } from '../../src/demo/redis-probe.js';
import { runConnector } from '../helpers/connector-cli.js';
import { REDIS_URL, testRedis } from '../helpers/redis.js';

/**
 * `connector demo` as a newcomer runs it: the real command in a child process, against the
 * local Redis, with nothing configured but REDIS_URL.
 */

const hasRedisServer = spawnSync('/bin/sh', ['-c', 'command -v redis-server']).status === 0;

let redis: Redis;
let child: ChildProcess | undefined;

beforeAll(() => {
  redis = testRedis();
});
afterAll(async () => {
  await redis.quit();
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

function runDemo(env: Record<string, string> = {}, args: string[] = []) {
  const started = Date.now();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', ...args], {
    env: { ...process.env, REDIS_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  proc.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(proc, 'exit').then(([code]) => ({
    code: code as number | null,
    seconds: (Date.now() - started) / 1000,
  }));
  return { proc, exited, output: () => stdout, errors: () => stderr };
}

/** The prefix and partner token the demo announces, so the test can look for leftovers. */
function announced(output: string) {
  const prefix = /keys under prefix (demo-[0-9a-f]{8})\b/.exec(output)?.[1];
  const token = /token (sbx_[0-9a-f]+)/.exec(output)?.[1];
  expect(prefix, 'the demo prints its key prefix').toBeDefined();
  expect(token, 'the demo prints its partner token').toBeDefined();
  return { prefix: prefix!, token: token! };
}

async function leftovers(prefix: string, token: string): Promise<string[]> {
  return [
    ...(await scanKeys(redis, `${prefix}*`)),
    ...(await scanKeys(redis, budgetKeyPattern(token))),
  ];
}

async function waitForOutput(run: ReturnType<typeof runDemo>, text: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(text)) {
    if (Date.now() > deadline || run.proc.exitCode !== null) {
      throw new Error(`"${text}" never appeared:\n${run.output()}\n${run.errors()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('connector demo', () => {
  it('runs the whole flow by itself, narrates it, and leaves nothing in Redis', async () => {
    const run = runDemo();
    const { code } = await run.exited;
    const output = run.output();

    expect(code, `${output}\n${run.errors()}`).toBe(0);
    expect(run.errors()).toBe('');
    // It opens with no warning of its own making (fast retries, a throwaway Redis, a first start).
    const opening = output.slice(0, output.indexOf('1. New orders arrive'));
    expect(opening).not.toMatch(/^\s+\(connector log/m);
    expect(opening).toMatch(
      /Bull Board\s+http:\/\/127\.0\.0\.1:\d+\/admin\/queues\s+\(user demo, password \S+\)/,
    );

    // Registered orders, each with its own provider order number.
    const registered = [...output.matchAll(/registered\s+provider order number (PS-\d{6})/g)].map(
      (m) => m[1],
    );
    expect(registered.length).toBeGreaterThanOrEqual(5);
    expect(new Set(registered).size).toBe(registered.length);
    expect(output).toMatch(/#1001\s+registered\s+provider order number PS-\d{6}/);
    expect(output).toContain('+ tag shipment-registered');
    expect(output).toMatch(/metafield partner_shipment\.order_number = PS-\d{6}/);

    // The two fixtures that cannot ship, with the reasons staff see.
    expect(output).toMatch(
      /#1003\s+refused\s+Order #1003 cannot be shipped as it is:\s+receiver\.address\.postal_code: The order's shipping address has no postal code\./,
    );
    expect(output).toMatch(/#1004\s+refused[\s\S]*weighs 45 kg per unit/);
    expect(output).toContain('+ tag shipment-error');

    // Skipped: unpaid, test, cancelled.
    expect(output).toMatch(/#1005\s+skipped\s+Financial status is pending/);
    expect(output).toMatch(/#1006\s+skipped\s+Order is a test order/);
    expect(output).toMatch(/#1007\s+skipped\s+Order is cancelled/);

    // The live paths: payment arrives, a provider 500 is retried once, a late cancellation.
    expect(output).toMatch(/#1005\s+registered\s+provider order number PS-\d{6}/);
    expect(output).toMatch(/retried\s+2 attempts/);
    expect(output).toContain('holds 1 shipment for it');
    expect(output).toMatch(/flagged\s+cancelled in Shopify after PS-\d{6} was registered/);
    expect(output).toContain('+ tag shipment-cancel-at-provider');

    // The status sync carries the provider's steps to Shopify: fulfilled with tracking, delivered.
    expect(output).toMatch(/\+ fulfillment fulfilled, tracking PostNord DK \d+/);
    expect(output).toMatch(/\+ fulfillment delivered, tracking PostNord DK \d+/);
    expect(output).toMatch(/#1001\s+5550001\s+registered\s+PS-\d{6}, .*in Shopify delivered/);
    expect(output).toMatch(
      /In Shopify, 7 orders were fulfilled with the carrier's tracking and 7 marked delivered/,
    );
    // What a shipment leaves out, said for the two orders that show it.
    expect(output).toMatch(/#1012\s+left out\s+2 of 3 × Wool blanket already fulfilled/);
    expect(output).toMatch(/#1013\s+left out\s+3 × Garden bench is on a fulfillment order/);

    // Service logs come through readably, never as raw JSON.
    expect(output).not.toMatch(/^\{"level"/m);
    expect(output).toMatch(/Cleaned up: .* removed \d+ Redis keys/);

    const { prefix, token } = announced(output);
    expect(await leftovers(prefix, token)).toEqual([]);
  }, 90_000);

  it('with --keep-running, points the CLI at itself: one token, its settings in a file the CLI reads', async () => {
    const run = runDemo({}, ['--keep-running']);
    await waitForOutput(run, 'From another terminal', 90_000);
    const output = run.output();
    const { prefix, token } = announced(output);
    // One partner token in everything it prints.
    expect(new Set(output.match(/sbx_[0-9a-z_]+/g))).toEqual(new Set([token]));
    expect(output).toContain(`PARTNER_API_TOKEN=${token}`);
    expect(output).toContain(`QUEUE_PREFIX=${prefix}`);
    const file = readFileSync(DEMO_SETTINGS_FILE, 'utf8');
    expect(file).toContain(`PARTNER_API_TOKEN=${token}\n`);

    // Nothing but the file: the CLI finds the order by its name and tells its story.
    const cli = (...args: string[]) =>
      runConnector(['--env-file', DEMO_SETTINGS_FILE, ...args], {});
    const status = await cli('status', '#1003');
    expect(status.stderr).toBe('');
    expect(status.stdout).toContain('Order 5550003 (#1003)');
    expect(status.stdout).toContain('State: refused');
    expect(status.stdout).toContain('What to do: fix the order in Shopify');
    expect(status.stdout).toMatch(/Timeline[\s\S]*job create-shipment\/order-5550003 failed/);
    // The dry run and the real run agree: the records are this environment's.
    const dry = await cli(
      'replay',
      '--queue',
      'create-shipment',
      '--job',
      'order-5550003',
      '--dry-run',
    );
    expect(dry.stdout).toContain('would retry');
    expect(dry.code).toBe(0);
    const real = await cli('replay', '--queue', 'create-shipment', '--job', 'order-5550003');
    expect(real.stderr).not.toContain('environment forget');
    expect(real.stdout).toContain('create-shipment/order-5550003 (order 5550003): retried');
    expect(real.code).toBe(0);

    run.proc.kill('SIGINT');
    expect((await run.exited).code).toBe(0);
    expect(existsSync(DEMO_SETTINGS_FILE)).toBe(false);
    expect(await leftovers(prefix, token)).toEqual([]);
  }, 150_000);

  it('stops and cleans up on Ctrl-C', async () => {
    const run = runDemo();
    await waitForOutput(run, '2. Orders from before the connector ran');
    const { prefix, token } = announced(run.output());
    expect((await scanKeys(redis, `${prefix}*`)).length).toBeGreaterThan(0);

    run.proc.kill('SIGINT');
    const { code } = await run.exited;

    expect(code, run.output()).toBe(130);
    expect(run.output()).toContain('Interrupted: stopping and cleaning up');
    expect(run.output()).toMatch(/Cleaned up: .* removed \d+ Redis keys/);
    expect(await leftovers(prefix, token)).toEqual([]);
  }, 60_000);

  it.skipIf(!hasRedisServer)(
    'starts a private Redis when none answers at REDIS_URL, and stops it at the end',
    async () => {
      const run = runDemo({ REDIS_URL: 'redis://127.0.0.1:1' });
      await waitForOutput(run, '2. Orders from before the connector ran');
      expect(run.output()).toContain(
        'a private redis-server for this run (nothing answered at redis://127.0.0.1:1)',
      );
      const url = /Redis\s+(redis:\/\/127\.0\.0\.1:\d+),/.exec(run.output())?.[1];
      expect(url).toBeDefined();
      expect(url).not.toBe(REDIS_URL);
      expect(await probeRedis(url!)).toBeNull();

      run.proc.kill('SIGINT');
      const { code } = await run.exited;

      // The demo still cleans up through its private Redis, then stops it.
      expect(code, `${run.output()}\n${run.errors()}`).toBe(130);
      expect(run.output()).toMatch(/Cleaned up: .* removed \d+ Redis keys/);
      expect(await probeRedis(url!, 300)).not.toBeNull();
    },
    60_000,
  );

  it('says in one line how to get a Redis, and exits non-zero, when none answers and none can start', async () => {
    // No redis-server on this PATH; node itself is started by its full path.
    const run = runDemo({ REDIS_URL: 'redis://127.0.0.1:1', PATH: '/nonexistent' });
    const { code } = await run.exited;

    expect(code).toBe(69);
    const [first, ...rest] = run.errors().trim().split('\n');
    expect(first).toContain('Redis does not answer at redis://127.0.0.1:1');
    expect(first).toContain('sudo apt-get install redis-server');
    expect(rest).toEqual([
      'Or run one: docker run -d --name connector-redis -p 6379:6379 redis:7-alpine',
    ]);
    expect(run.output()).toBe('');
  }, 30_000);
});
