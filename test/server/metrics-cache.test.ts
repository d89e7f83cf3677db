import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerQueueMetrics } from '../../src/compose/queue-metrics.js';
import { ConnectorMetrics } from '../../src/metrics/registry.js';
import { type IntakeParts, intakeParts, silentLogger } from '../helpers/intake.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

let redis: Redis;
let parts: IntakeParts;
let sent = 0;

beforeEach(() => {
  redis = testRedis();
  // Every command the queue metrics send goes through this connection: count them.
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent += 1;
    return send(...args);
  }) as Redis['sendCommand'];
  parts = intakeParts(redis, uniquePrefix('metrics-cache'));
});

afterEach(async () => {
  await parts.close();
  await dropKeys(redis, parts.prefix);
  await redis.quit();
});

async function commandsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = sent;
  await work();
  return sent - before;
}

describe('queue metrics under a storm of scrapes', () => {
  it('read Redis once per cacheMs, however many scrapes come at once or meanwhile', async () => {
    let clock = 1_000_000;
    const metrics = new ConnectorMetrics({ logger: silentLogger, processMetrics: false });
    registerQueueMetrics(metrics, parts, { cacheMs: 5_000, now: () => clock });
    await parts.enqueueOrder('5550001', 'test');

    const one = await commandsDuring(() => metrics.render());
    // One reading of every queue: the cost a cache is for.
    expect(one).toBeGreaterThan(50);

    clock += 5_000;
    const storm = await commandsDuring(() =>
      Promise.all(Array.from({ length: 100 }, () => metrics.render())),
    );
    expect(storm).toBe(one);

    const meanwhile = await commandsDuring(async () => {
      for (let i = 0; i < 20; i += 1) {
        clock += 200;
        await metrics.render();
      }
    });
    expect(meanwhile).toBe(0);

    clock += 5_000;
    expect(await commandsDuring(() => metrics.render())).toBe(one);
  });

  it('show what changed once the reading is older than cacheMs', async () => {
    let clock = 1_000_000;
    const metrics = new ConnectorMetrics({ logger: silentLogger, processMetrics: false });
    registerQueueMetrics(metrics, parts, { cacheMs: 5_000, now: () => clock });
    const waiting = async () =>
      /connector_orders_waiting (\d+)/.exec((await metrics.render()).body)?.[1];

    expect(await waiting()).toBe('0');
    await parts.enqueueOrder('5550002', 'test');
    expect(await waiting()).toBe('0');
    clock += 5_000;
    expect(await waiting()).toBe('1');
  });
});
