import type { Queue } from 'bullmq';
import type { SyncSummary } from '../../jobs/sync-shipments/cycle.js';
import type { ShipmentStack } from './shipment-stack.js';
import { waitForJob, waitUntil } from './shipment-stack.js';

/**
 * A provider clock the test moves by hand: every step of a shipment gets its own updated_at, as
 * at a real provider, however fast the test runs. It never falls behind the real clock, which
 * the connector's window is computed from.
 */
export function providerClock() {
  let nowMs = Date.now();
  return {
    clock: () => new Date(nowMs),
    /** Moves the provider's clock on by `ms` (default 2 s). */
    tick(ms = 2_000) {
      nowMs = Math.max(nowMs + ms, Date.now());
    },
  };
}

let runs = 0;

/** Runs one sync job, as the scheduler would add it, and returns its summary. */
export async function runSync(s: ShipmentStack): Promise<SyncSummary> {
  runs += 1;
  const jobId = `sync-test-${runs}`;
  await s.queues.syncShipments.add('sync-shipments', {}, { jobId });
  const job = await waitForJob(s.queues.syncShipments, jobId, 'completed', { timeoutMs: 30_000 });
  return job.returnvalue as SyncSummary;
}

/** The status sync's Shopify writes. */
export function updateQueues(s: ShipmentStack): Queue[] {
  return [
    s.queues.writeShipmentStatus,
    s.queues.reportShipmentProgress,
    s.queues.fulfilShipment,
    s.queues.recordDelivery,
    s.queues.flagCancelledShipment,
  ];
}

/** Waits until no Shopify write of the sync (or registration mark) is waiting or running. */
export async function settled(s: ShipmentStack, timeoutMs = 30_000): Promise<void> {
  const queues = [...updateQueues(s), s.queues.markOrder, s.queues.createShipment];
  await waitUntil(
    async () => {
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).some((n) => n > 0)) return false;
      }
      return true;
    },
    { timeoutMs, what: 'the sync writes to finish' },
  );
}

/** Partner requests by endpoint since `since` (ms). */
export function partnerCalls(s: ShipmentStack, since: number) {
  const counts = s.sandbox.requestCounts({ since }).byEndpoint;
  return {
    list: counts['GET /shipments'] ?? 0,
    detail: counts['GET /shipments/{reference}'] ?? 0,
    create: counts['POST /shipments'] ?? 0,
  };
}

/** Shopify mutations the fake store applied since index `from` of its log, by type. */
export function shopifyWrites(s: ShipmentStack, from: number): string[] {
  return s.store.mutations.slice(from).map((m) => m.type);
}
