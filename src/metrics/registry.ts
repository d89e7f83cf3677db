import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Logger } from '../log.js';
import { withTimeout } from '../queue/timeout.js';

const METRIC_PREFIX = 'connector_';

/** Ends the help text of a metric every process reads from Redis alike. */
export const SHARED = 'Shared by all processes (kept in Redis).';

export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

/** Read at scrape time, not kept in this process: Redis values or queue counts. */
export interface ScrapedMetric {
  /** Counters end in `_total`. */
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** If it throws, the metric has no samples in this scrape. */
  read(): Promise<number | Sample[]>;
}

/** Shared values are read at each scrape, so every process serving /metrics reports the same. */
export class ConnectorMetrics {
  readonly registry = new Registry();
  private readonly readFailures: Counter<'metric'>;
  private readonly others: OtherRegistry[] = [];

  constructor(
    private readonly options: {
      logger: Logger;
      /** Node.js process metrics. Default true. */
      processMetrics?: boolean;
      /** Queues wait for Redis while it is down, and a scrape must still answer. Default 5 s. */
      readTimeoutMs?: number;
    },
  ) {
    if (options.processMetrics !== false) {
      collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    }
    this.readFailures = new Counter({
      name: 'connector_metric_read_failures_total',
      help: 'Scrapes in which this process could not read a shared metric (Redis down, say); that metric was left out of the scrape. Shown from the next scrape on. Per process.',
      labelNames: ['metric'],
      registers: [this.registry],
    });
  }

  registerGauge(metric: ScrapedMetric): void {
    this.register(metric, 'gauge');
  }

  registerCounter(metric: ScrapedMetric): void {
    if (!metric.name.endsWith('_total')) {
      throw new Error(`Counter ${metric.name} must end in _total`);
    }
    this.register(metric, 'counter');
  }

  /** E.g. the workers' thread; summed with this registry's by name and labels. */
  addRegistry(other: OtherRegistry): void {
    this.others.push(other);
  }

  async render(): Promise<{ contentType: string; body: string }> {
    const contentType = this.registry.contentType;
    if (this.others.length === 0) return { contentType, body: await this.registry.metrics() };
    const [own, ...others] = await Promise.allSettled([
      this.registry.getMetricsAsJSON(),
      ...this.others.map((other) => other.read()),
    ]);
    if (own.status === 'rejected') throw own.reason;
    const answered = others.flatMap((other, i) => {
      if (other.status === 'fulfilled') return [other.value];
      this.readFailures.inc({ metric: this.others[i]!.name });
      this.options.logger.debug({ err: other.reason }, 'could not read metrics for /metrics');
      return [];
    });
    const merged = AggregatorRegistry.aggregate([own.value, ...answered]);
    return { contentType, body: await merged.metrics() };
  }

  private register(metric: ScrapedMetric, type: 'gauge' | 'counter'): void {
    // The alert rules and dashboard rely on these names.
    if (!metric.name.startsWith(METRIC_PREFIX) || !/^[a-z][a-z0-9_]*$/.test(metric.name)) {
      throw new Error(
        `Metric name ${metric.name} must be snake_case and start with ${METRIC_PREFIX}`,
      );
    }
    const { logger } = this.options;
    const config = {
      name: metric.name,
      help: metric.help,
      labelNames: [...(metric.labelNames ?? [])],
      registers: [this.registry],
    };
    const readSamples = async (): Promise<Sample[]> => {
      try {
        const value = await withTimeout(
          metric.read(),
          this.options.readTimeoutMs ?? 5_000,
          () => new Error('read timed out'),
        );
        return typeof value === 'number' ? [{ value }] : value;
      } catch (err) {
        this.readFailures.inc({ metric: metric.name });
        logger.debug({ err, metric: metric.name }, 'could not read a metric for /metrics');
        return [];
      }
    };
    // Replaced in one synchronous step after the read, so overlapping scrapes never mix. Nothing
    // read, nothing reported: prom-client would report a false 0 for a label-less metric.
    const scraped = type === 'gauge' ? new Gauge(config) : new Counter(config);
    const snapshot = scraped.get.bind(scraped);
    scraped.get = async () => {
      const samples = await readSamples();
      scraped.reset();
      for (const { labels = {}, value } of samples) {
        if (scraped instanceof Gauge) scraped.set(labels, value);
        else scraped.inc(labels, Math.max(0, value));
      }
      const got = await snapshot();
      return samples.length > 0 ? got : { ...got, values: [] };
    };
  }
}

export interface OtherRegistry {
  name: string;
  read(): ReturnType<Registry['getMetricsAsJSON']>;
}
