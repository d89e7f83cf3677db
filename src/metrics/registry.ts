import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import type { Logger } from '../log.js';

/** Every metric the connector exposes starts with this. */
export const METRIC_PREFIX = 'connector_';

/** The end of the help text of a metric every process reads from Redis alike. */
export const SHARED = 'Shared by all processes (kept in Redis).';

/** One value of a metric read at scrape time, with its labels (none for a single value). */
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * A metric whose value is read when Prometheus scrapes, not kept in this process: what lives in
 * Redis (shared by every process) or can be asked for at any time (queue counts).
 */
export interface ScrapedMetric {
  /** snake_case, starting with `connector_`; counters end in `_total`. */
  name: string;
  /** What it means to an operator, and where it comes from. */
  help: string;
  labelNames?: readonly string[];
  /** The current value(s). If it throws, the metric has no samples in this scrape. */
  read(): Promise<number | Sample[]>;
}

/**
 * The connector's Prometheus registry. Per-process metrics (requests this process sent) are
 * registered on `registry` directly; values that live in Redis or in the queues are registered
 * with `registerGauge` / `registerCounter` and read at each scrape, so every process that serves
 * /metrics reports the same shared numbers.
 */
export class ConnectorMetrics {
  readonly registry = new Registry();
  private readonly readFailures: Counter<'metric'>;
  private readonly others: OtherRegistry[] = [];

  constructor(
    private readonly options: {
      logger: Logger;
      /** Node.js process metrics (CPU, memory, event loop), prefixed `connector_`. Default true. */
      processMetrics?: boolean;
      /**
       * How long one shared metric may take to read; past that it is left out of the scrape.
       * Queues wait for Redis while it is down, and a scrape must still answer. Default 5 s.
       */
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

  /**
   * Adds a gauge read at scrape time: the port for values other parts own (the status sync's
   * lag, say). A metric whose reader fails is left out of that scrape and counted in
   * `connector_metric_read_failures_total`.
   */
  registerGauge(metric: ScrapedMetric): void {
    this.register(metric, 'gauge');
  }

  /** Adds a counter read at scrape time (a total kept in Redis, say). */
  registerCounter(metric: ScrapedMetric): void {
    if (!metric.name.endsWith('_total')) {
      throw new Error(`Counter ${metric.name} must end in _total`);
    }
    this.register(metric, 'counter');
  }

  /**
   * Adds the metrics of another part of this process (the queue workers' thread) to what
   * `render` serves, summed with this registry's by name and labels. A part that cannot answer
   * is left out of that scrape.
   */
  addRegistry(other: OtherRegistry): void {
    this.others.push(other);
  }

  /** The exposition text and its content type. */
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
    // Snake_case and prefixed, so the alert rules and dashboard can rely on them.
    if (!metric.name.startsWith(METRIC_PREFIX) || !/^[a-z][a-z0-9_]*$/.test(metric.name)) {
      throw new Error(
        `Metric name ${metric.name} must be snake_case and start with ${METRIC_PREFIX}`,
      );
    }
    const { logger } = this.options;
    const failures = this.readFailures;
    const config = {
      name: metric.name,
      help: metric.help,
      labelNames: [...(metric.labelNames ?? [])],
      registers: [this.registry],
    };
    const readSamples = async (): Promise<Sample[]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('read timed out')),
          this.options.readTimeoutMs ?? 5_000,
        );
      });
      try {
        const value = await Promise.race([metric.read(), timeout]);
        return typeof value === 'number' ? [{ value }] : value;
      } catch (err) {
        failures.inc({ metric: metric.name });
        logger.debug({ err, metric: metric.name }, 'could not read a metric for /metrics');
        return [];
      } finally {
        clearTimeout(timer);
      }
    };
    if (type === 'gauge') new ScrapedGauge(config, readSamples);
    else new ScrapedCounter(config, readSamples);
  }
}

/** Metrics kept elsewhere in this process, as prom-client's `getMetricsAsJSON` gives them. */
export interface OtherRegistry {
  /** Named in `connector_metric_read_failures_total` when it cannot answer. */
  name: string;
  read(): Promise<MetricObjectWithValues<MetricValue<string>>[]>;
}

type MetricConfig = { name: string; help: string; labelNames: string[]; registers: Registry[] };

/*
 * Each scrape replaces the values with what `read` returned, in one synchronous step after the
 * read, so overlapping scrapes never mix. Nothing read, nothing reported: prom-client would
 * otherwise report 0 for a label-less metric, which would look like a true value.
 */

class ScrapedGauge extends Gauge {
  constructor(
    config: MetricConfig,
    private readonly readSamples: () => Promise<Sample[]>,
  ) {
    super(config);
  }

  override async get() {
    const samples = await this.readSamples();
    this.reset();
    for (const s of samples) this.set(s.labels ?? {}, s.value);
    const snapshot = await super.get();
    return samples.length > 0 ? snapshot : { ...snapshot, values: [] };
  }
}

class ScrapedCounter extends Counter {
  constructor(
    config: MetricConfig,
    private readonly readSamples: () => Promise<Sample[]>,
  ) {
    super(config);
  }

  override async get() {
    const samples = await this.readSamples();
    this.reset();
    for (const s of samples) this.inc(s.labels ?? {}, Math.max(0, s.value));
    const snapshot = await super.get();
    return samples.length > 0 ? snapshot : { ...snapshot, values: [] };
  }
}
