import { describe, expect, it } from 'vitest';
import { ConnectorMetrics } from '../../src/metrics/registry.js';
import { SYNC_LAG } from '../../src/metrics/sync-lag.js';
import { silentLogger } from '../helpers/intake.js';
import { parseScrape } from '../helpers/metrics.js';

function registry(readTimeoutMs?: number) {
  return new ConnectorMetrics({
    logger: silentLogger,
    processMetrics: false,
    ...(readTimeoutMs ? { readTimeoutMs } : {}),
  });
}

async function scrape(metrics: ConnectorMetrics) {
  return parseScrape((await metrics.render()).body);
}

describe('ConnectorMetrics', () => {
  it('has no sync lag until the status sync registers its reader, then reads it at each scrape', async () => {
    const metrics = registry();
    expect((await scrape(metrics)).declared.has(SYNC_LAG.name)).toBe(false);

    let lagSeconds = 42;
    metrics.registerGauge({ ...SYNC_LAG, read: async () => lagSeconds });
    expect((await scrape(metrics)).value(SYNC_LAG.name)).toBe(42);
    lagSeconds = 0;
    expect((await scrape(metrics)).value(SYNC_LAG.name)).toBe(0);
  });

  it('leaves out a metric it cannot read, rather than report 0, and counts the failure', async () => {
    const metrics = registry();
    let redisDown = true;
    metrics.registerGauge({
      name: 'connector_example_waiting',
      help: 'An example.',
      read: async () => {
        if (redisDown) throw new Error('Connection is closed.');
        return 3;
      },
    });

    expect((await scrape(metrics)).value('connector_example_waiting')).toBeUndefined();
    // The failure counter comes first in the text, so it shows a failure from the next scrape on.
    const next = await scrape(metrics);
    expect(
      next.value('connector_metric_read_failures_total', { metric: 'connector_example_waiting' }),
    ).toBe(1);

    redisDown = false;
    expect((await scrape(metrics)).value('connector_example_waiting')).toBe(3);
  });

  it('answers a scrape whose reader hangs (queues waiting for Redis), without that metric', async () => {
    const metrics = registry(50);
    metrics.registerGauge({
      name: 'connector_example_hanging',
      help: 'Never answers.',
      read: () => new Promise<number>(() => {}),
    });
    metrics.registerGauge({ name: 'connector_example_ok', help: 'Answers.', read: async () => 1 });

    const result = await scrape(metrics);
    expect(result.value('connector_example_hanging')).toBeUndefined();
    expect(result.value('connector_example_ok')).toBe(1);
  });

  it('replaces labelled values at each scrape: a label that is gone is not reported again', async () => {
    const metrics = registry();
    let samples = [
      { labels: { queue: 'a' }, value: 1 },
      { labels: { queue: 'b' }, value: 2 },
    ];
    metrics.registerCounter({
      name: 'connector_example_total',
      help: 'An example.',
      labelNames: ['queue'],
      read: async () => samples,
    });
    expect((await scrape(metrics)).value('connector_example_total', { queue: 'b' })).toBe(2);
    samples = [{ labels: { queue: 'a' }, value: 5 }];
    const later = await scrape(metrics);
    expect(later.value('connector_example_total', { queue: 'a' })).toBe(5);
    expect(later.value('connector_example_total', { queue: 'b' })).toBeUndefined();
  });

  it('refuses names the rules and dashboard could not rely on', () => {
    const metrics = registry();
    const read = async () => 1;
    expect(() => metrics.registerGauge({ name: 'orders_waiting', help: 'x', read })).toThrow(
      /connector_/,
    );
    expect(() =>
      metrics.registerGauge({ name: 'connector_OrdersWaiting', help: 'x', read }),
    ).toThrow(/snake_case/);
    expect(() => metrics.registerCounter({ name: 'connector_marks', help: 'x', read })).toThrow(
      /_total/,
    );
  });
});
