import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { warnAboutRedisDurability } from '../../src/queue/redis-durability.js';
import { waitFor } from '../helpers/intake.js';
import { testRedis } from '../helpers/redis.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function capturingLogger() {
  const lines: { level: number; msg: string; setting?: string; value?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ level: 'info' }, stream), warnings: () => lines };
}

/** A private redis-server on a Unix socket (no TCP port to collide with), gone after the test. */
async function privateRedis(args: string[]): Promise<Redis> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-durability-'));
  const socket = join(dir, 'redis.sock');
  const server: ChildProcess = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--dir', dir, '--save', '', ...args],
    { stdio: 'ignore' },
  );
  closers.push(async () => {
    server.kill('SIGTERM');
    if (server.exitCode === null) await once(server, 'exit');
    rmSync(dir, { recursive: true, force: true });
  });
  // Retries every 20 ms until the server has made its socket.
  const redis = new Redis({ path: socket, retryStrategy: () => 20 });
  redis.on('error', () => {});
  await waitFor(() => redis.status === 'ready', { what: 'the private redis-server' });
  closers.push(() => redis.quit());
  return redis;
}

describe('warnAboutRedisDurability', () => {
  it('warns, naming appendonly and how to set it, on a Redis that keeps RDB snapshots only', async () => {
    // The local Redis runs with Debian's defaults: appendonly no, noeviction.
    const redis = testRedis();
    closers.push(() => redis.quit());
    expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    const { logger, warnings } = capturingLogger();

    const report = await warnAboutRedisDurability(redis, logger);

    expect(report).toEqual({ checked: true, unsafe: [{ setting: 'appendonly', value: 'no' }] });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ level: 40, setting: 'appendonly', value: 'no' });
    expect(warnings()[0]?.msg).toContain('Set "appendonly yes" in redis.conf');
  });

  it('warns about eviction, and only about eviction, on a Redis with AOF that evicts keys', async () => {
    const redis = await privateRedis(['--appendonly', 'yes', '--maxmemory-policy', 'allkeys-lru']);
    const { logger, warnings } = capturingLogger();

    const report = await warnAboutRedisDurability(redis, logger);

    expect(report).toEqual({
      checked: true,
      unsafe: [{ setting: 'maxmemory-policy', value: 'allkeys-lru' }],
    });
    expect(warnings().map((w) => w.setting)).toEqual(['maxmemory-policy']);
    expect(warnings()[0]?.msg).toContain('Set "maxmemory-policy noeviction"');
  });

  it('says nothing when Redis is set up for production', async () => {
    const redis = await privateRedis(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']);
    const { logger, warnings } = capturingLogger();

    expect(await warnAboutRedisDurability(redis, logger)).toEqual({ checked: true, unsafe: [] });
    expect(warnings()).toEqual([]);
  });

  it('says it could not check when CONFIG is disabled, as on many managed Redis services', async () => {
    const redis = await privateRedis(['--rename-command', 'CONFIG', '""']);
    const { logger, warnings } = capturingLogger();

    const report = await warnAboutRedisDurability(redis, logger);

    expect(report).toMatchObject({
      checked: false,
      reason: expect.stringMatching(/unknown command/i),
    });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toMatch(/^could not check Redis persistence/);
    expect(warnings()[0]?.msg).toContain('appendonly yes and maxmemory-policy noeviction');
  });
});
