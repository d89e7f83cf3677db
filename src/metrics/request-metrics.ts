import { Counter, Histogram } from 'prom-client';
import type { PartnerRequestOutcome } from '../partner/client.js';
import type { QueryCost, StoreRequestOutcome } from '../store/index.js';
import type { ConnectorMetrics } from './registry.js';

/** Per process: sum over the processes serving /metrics (`--no-http` workers serve none). */
export type RequestMetrics = ReturnType<typeof requestMetrics>;

export function requestMetrics(metrics: ConnectorMetrics) {
  const registers = [metrics.registry];
  const counter = (name: string, help: string, labelNames = ['operation']) =>
    new Counter({ name, help, labelNames, registers });
  const partnerRequests = counter(
    'connector_partner_requests_total',
    'Requests this process sent to the Partner Shipment API, by endpoint and HTTP status (status "none": no answer, e.g. a timeout). Per process.',
    ['endpoint', 'status'],
  );
  const partnerDuration = new Histogram({
    name: 'connector_partner_request_duration_seconds',
    help: 'Time until the Partner Shipment API answered (or the request failed), by endpoint. Per process.',
    labelNames: ['endpoint'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers,
  });
  const storeRequests = counter(
    'connector_shopify_requests_total',
    'Admin GraphQL requests this process sent to Shopify, by operation and outcome: ok (answered), throttled (sent again after a wait), error. Per process.',
    ['operation', 'outcome'],
  );
  const requestedCost = counter(
    'connector_shopify_query_cost_requested_total',
    "Points of Shopify's query cost that requests Shopify ran asked for (requestedQueryCost, charged up front), by operation. Per process.",
  );
  const actualCost = counter(
    'connector_shopify_query_cost_actual_total',
    "Points of Shopify's query cost that requests Shopify ran were charged in the end (actualQueryCost, after the refund), by operation. Per process.",
  );
  const throttleWait = counter(
    'connector_shopify_throttle_wait_seconds_total',
    'Seconds this process waited before sending a request Shopify throttled (THROTTLED or HTTP 429), by operation. Per process.',
  );
  // Unset until an answer says so.
  let bucket: QueryCost['throttleStatus'];
  metrics.registerGauge({
    name: 'connector_shopify_cost_available_points',
    help: "Points left in Shopify's query-cost bucket for this app, as the last answer to this process said. Per process.",
    read: async () => (bucket ? bucket.currentlyAvailable : []),
  });
  metrics.registerGauge({
    name: 'connector_shopify_cost_maximum_points',
    help: "Size of Shopify's query-cost bucket for this app (maximumAvailable), as the last answer to this process said. Per process.",
    read: async () => (bucket ? bucket.maximumAvailable : []),
  });

  return {
    partnerRequest({ endpoint, status, durationMs }: PartnerRequestOutcome): void {
      partnerRequests.inc({ endpoint, status: status === undefined ? 'none' : String(status) });
      partnerDuration.observe({ endpoint }, durationMs / 1000);
    },
    storeRequest({ operation, outcome, cost, throttleWaitMs }: StoreRequestOutcome): void {
      storeRequests.inc({ operation, outcome });
      if (cost && outcome === 'ok') {
        requestedCost.inc({ operation }, cost.requested);
        if (cost.actual !== null) actualCost.inc({ operation }, cost.actual);
      }
      if (cost?.throttleStatus) bucket = cost.throttleStatus;
      if (throttleWaitMs !== undefined) throttleWait.inc({ operation }, throttleWaitMs / 1000);
    },
  };
}
