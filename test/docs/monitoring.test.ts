import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SYNC_LAG } from '../../src/metrics/sync-lag.js';
import { instruments, type MetricsServer, startMetricsServer } from '../helpers/metrics.js';
import { shipmentStacks } from '../helpers/shipment-stack.js';

// The alert rules and the Grafana dashboard in docs/ name metrics; a renamed or dropped metric
// would leave an alert that never fires, so they are held to what /metrics really serves.

const RULES = new URL('../../docs/alerts/connector.rules.yml', import.meta.url);
const DASHBOARD = new URL('../../docs/grafana/connector-dashboard.json', import.meta.url);

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description?: string };
}

function rules(): Rule[] {
  const doc = parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  return doc.groups.flatMap((group) => group.rules);
}

function dashboardExprs(): string[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr));
}

/** The metric names an expression uses; a histogram's series name its family. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\bconnector_[a-z0-9_]+/g)].map((m) =>
    m[0].replace(/_(bucket|sum|count)$/, ''),
  );
}

const startStack = shipmentStacks();
let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('docs/alerts/connector.rules.yml', () => {
  it('parses as Prometheus rule groups, each alert with an expression, a severity and a summary', () => {
    const all = rules();
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const rule of all) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Connector[A-Za-z]+$/);
      expect(rule.expr.trim()).not.toBe('');
      expect(['critical', 'warning', 'info']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
    }
    // What the operations issue asks to be alerted on.
    const exprs = all.map((r) => r.expr).join('\n');
    for (const name of [
      'connector_partner_token_refused',
      'connector_queue_paused',
      'connector_jobs_total',
      'connector_orders_waiting_oldest_age_seconds',
      SYNC_LAG.name,
      'connector_shopify_requests_total',
      'connector_webhooks_rejected_total',
    ]) {
      expect(exprs).toContain(name);
    }
  });
});

describe('the metrics the alert rules and the dashboard use', () => {
  it('are all served by /metrics of a running connector', async () => {
    const kit = instruments({ processMetrics: true });
    const stack = await startStack({ workers: false });
    server = await startMetricsServer(stack, { instruments: kit });
    const served = (await server.scrape()).declared;
    const used = new Set([...rules().map((r) => r.expr), ...dashboardExprs()].flatMap(metricNames));

    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((name) => !served.has(name))).toEqual([]);
  });
});
