import type { FastifyInstance } from 'fastify';
import { buildPartnerSide, type PartnerSide } from '../../src/compose/clients.js';
import { registerSharedMetrics } from '../../src/compose/metrics.js';
import { ConnectorMetrics } from '../../src/metrics/registry.js';
import { type RequestMetrics, requestMetrics } from '../../src/metrics/request-metrics.js';
import { tokenRefusedSince } from '../../src/partner/auth-guard.js';
import { StoreHealth } from '../../src/records/store-health.js';
import { buildServer } from '../../src/server/app.js';
import { silentLogger, verify } from './intake.js';
import { DEMO_TOKEN, type ShipmentStack } from './shipment-stack.js';

/** One sample of a scrape: its name, labels and value. */
export interface ScrapedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Names declared by `# TYPE` lines: every metric in the registry, with samples or not. */
  declared: Set<string>;
  samples: ScrapedSample[];
  /** The value of the one sample with this name and these labels (others ignored), or undefined. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

/** Parses Prometheus' text format (enough of it for the connector's metrics). */
export function parseScrape(text: string): Scrape {
  const declared = new Set<string>();
  const samples: ScrapedSample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type?.[1]) declared.add(type[1]);
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] as string] = pair[2] as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return {
    declared,
    samples,
    value(name, want = {}) {
      return samples.find(
        (s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v),
      )?.value;
    },
  };
}

/** A registry and the request hooks reporting to it, made before the clients that use them. */
export interface Instruments {
  metrics: ConnectorMetrics;
  requests: RequestMetrics;
}

export function instruments(options: { processMetrics?: boolean } = {}): Instruments {
  const metrics = new ConnectorMetrics({
    logger: silentLogger,
    processMetrics: options.processMetrics ?? false,
  });
  return { metrics, requests: requestMetrics(metrics) };
}

export interface MetricsServer {
  url: string;
  metrics: ConnectorMetrics;
  requests: RequestMetrics;
  /** The partner client and budget the metrics see, drawing on the stack's budget keys. */
  partnerSide: PartnerSide;
  scrape(headers?: Record<string, string>): Promise<Scrape>;
  close(): Promise<void>;
}

/**
 * The connector's HTTP server with /metrics, as src/service.ts builds it, over a shipment stack:
 * the shared metrics read the stack's Redis and queues, and `requests` is the hook its clients
 * report to (pass it to the stack's store client and use `partnerSide.partner` in its workers).
 */
export async function startMetricsServer(
  stack: ShipmentStack,
  options: {
    token?: string;
    instruments?: Instruments;
    /** Where the partner client sends (the stack's sandbox by default). */
    partnerApiUrl?: string;
  } = {},
): Promise<MetricsServer> {
  const { metrics, requests } = options.instruments ?? instruments();
  const partnerSide = buildPartnerSide(
    {
      apiUrl: options.partnerApiUrl ?? stack.sandbox.url,
      token: DEMO_TOKEN,
      rateLimit: 60,
      rateWindowMs: 60_000,
      syncReserve: 0.2,
      retryAfterDefaultMs: 1_000,
      retryAfterMaxMs: 900_000,
      timeoutMs: 5_000,
    },
    stack.redis,
    silentLogger,
    `${stack.prefix}:partner-budget`,
    requests.partnerRequest,
  );
  registerSharedMetrics(metrics, {
    parts: stack.parts,
    budget: partnerSide.budget,
    limit: 60,
    tokenRefusedSince: () => tokenRefusedSince(stack.redis, stack.prefix),
  });
  const app: FastifyInstance = await buildServer({
    verify,
    redis: stack.redis,
    prefix: stack.prefix,
    counters: stack.counters,
    acceptWebhook: stack.parts.acceptWebhook,
    budget: partnerSide.budget,
    storeHealth: new StoreHealth(stack.redis, stack.prefix),
    logger: silentLogger,
    board: { queues: [], login: undefined },
    metrics: { render: () => metrics.render() },
    adminToken: options.token,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    metrics,
    requests,
    partnerSide,
    async scrape(headers = {}) {
      const response = await fetch(`${url}/metrics`, {
        headers,
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
      return parseScrape(await response.text());
    },
    close: () => app.close(),
  };
}
