import type { LiveShipment, StoredOrderStatus } from '../compose/order-status.js';
import type { TimelineEntry } from '../compose/order-timeline.js';
import { METAFIELD_NAMESPACE, ORDER_TAGS, STATUS_LABELS } from '../domain/order-marks.js';
import { describeChanges, FINGERPRINT_PARTS } from '../domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../domain/shipment-progress.js';
import { evictionPauseMessage } from '../queue/redis-durability.js';
import type { OrderRecord } from '../records/order-records.js';
import { fulfilledInShopify } from '../records/shipment-tracking.js';
import { utcText } from './dates.js';

export interface OrderStatus extends StoredOrderStatus {
  name?: string;
  live?: { shipment: LiveShipment } | { error: string };
}

/** The README's words (its failure table says "refused"). */
const STATE_WORD: Record<OrderRecord['state'], string> = {
  registered: 'registered',
  failed: 'refused',
  skipped: 'skipped',
  sending: 'sending',
};

const STATE_WORDS: Record<OrderRecord['state'], string> = {
  ...STATE_WORD,
  skipped: 'skipped (not eligible)',
  sending: 'sending (a create request left; its answer is not recorded yet)',
};

export function stateWord(state: string): string {
  return STATE_WORD[state as OrderRecord['state']] ?? state;
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function eligibility(record: OrderRecord | null): string {
  if (!record) return 'unknown: not checked yet';
  if (record.state === 'skipped') return `not eligible: ${record.reason ?? record.skipCode ?? '?'}`;
  return 'eligible';
}

function lastError(status: StoredOrderStatus): string | undefined {
  if (status.record?.state === 'failed' && status.record.reason) return status.record.reason;
  const [job] = status.jobs
    .filter((job) => job.failedReason)
    .sort((a, b) => (b.finishedAt ?? '').localeCompare(a.finishedAt ?? ''));
  return job ? `${job.queue}/${job.id}: ${job.failedReason}` : undefined;
}

const indent = (text: string) => text.replaceAll('\n', '\n      ');

export function formatOrderStatus(status: OrderStatus): string {
  const r = status.record;
  const error = lastError(status);
  const todo = whatToDo(status);
  return [
    `Order ${status.orderId}${status.name ? ` (${status.name})` : ''}`,
    `  State: ${r ? `${STATE_WORDS[r.state]} since ${r.updatedAt}` : 'not seen (the connector has no record of it)'}`,
    `  Eligibility: ${eligibility(r)}`,
    `  Reference at the provider: ${status.orderId}`,
    ...(r ? registrationLines(r, 'Provider status (when registered)') : []),
    ...formatSync(status.shipment),
    ...formatLive(status.live),
    `  Last error: ${error ? indent(error) : 'none'}`,
    ...(todo ? [`  What to do: ${todo}`] : []),
    '  Jobs:',
    ...(status.jobs.length === 0 ? ['    none kept for it in any queue'] : []),
    ...status.jobs.map(
      (job) =>
        `    ${job.queue}/${job.id}: ${job.state}, ${job.attemptsMade} attempt(s) made${job.finishedAt ? `, finished ${job.finishedAt}` : ''}`,
    ),
    formatPartnerQueues(status.partnerQueues),
    ...(status.evictionPause
      ? [`  PAUSED: ${evictionPauseMessage(status.evictionPause)} (checked every few minutes).`]
      : []),
    ...formatTimeline(status.timeline),
  ].join('\n');
}

/** What the record says of the registration; `order` adds the refusal reason. */
export function registrationLines(r: OrderRecord, statusLabel: string, withReason = false) {
  const edited = FINGERPRINT_PARTS.filter((p) => r.editReportedChanges?.split(',').includes(p));
  return [
    r.orderNumber && `  Provider order number: ${r.orderNumber}`,
    r.partnerStatus && `  ${statusLabel}: ${r.partnerStatus}`,
    r.registeredAt && `  Registered: ${r.registeredAt}`,
    withReason && r.reason && `  Reason: ${r.reason.replaceAll('\n', '\n          ')}`,
    r.cancelledAfterRegistrationAt &&
      `  Cancelled in Shopify after registration (${r.cancelledAfterRegistrationAt}): ask the provider to cancel it.`,
    r.editReportedAt &&
      edited.length > 0 &&
      `  Edited in Shopify after registration (${r.editReportedAt}): ${describeChanges(edited)} changed; tell the provider.`,
  ].filter((line): line is string => Boolean(line));
}

function formatTimeline(timeline: readonly TimelineEntry[]): string[] {
  return [
    '  Timeline (oldest first, times in UTC):',
    ...(timeline.length === 0 ? ['    nothing recorded for it'] : []),
    ...timeline.flatMap((entry) => [
      `    ${utcText(entry.at)}  ${describeEntry(entry).trimEnd().replaceAll('\n', '\n        ')}`,
      ...(entry.kind === 'job-run' ? entry.logs.map((log) => `        ${indent(log)}`) : []),
    ]),
  ];
}

function describeEntry(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'event':
      return entry.source.includes('/')
        ? `webhook ${entry.source}`
        : `seen by ${entry.source.replaceAll('-', ' ')}`;
    case 'provider-request':
      return `provider: ${entry.method} ${entry.path} → ${entry.status ?? 'no answer'}`;
    case 'provider-status':
      return `provider status: ${entry.status}`;
    case 'shopify-write':
      return `Shopify: ${entry.write}`;
    case 'job-queued':
      return `job ${entry.queue}/${entry.jobId} queued`;
    case 'job-run': {
      const attempts = plural(entry.attempts, 'attempt');
      const job = `job ${entry.queue}/${entry.jobId}`;
      if (entry.state === 'completed')
        return `${job} completed (${attempts})${entry.outcome ? `: ${entry.outcome.replaceAll(/[_-]/g, ' ')}` : ''}`;
      if (entry.state === 'failed')
        return `${job} failed (${attempts}): ${entry.reason ?? 'no reason kept'}`;
      return `${job} ${entry.state} (${attempts})${entry.reason ? `; the last attempt failed: ${entry.reason}` : ''}`;
    }
    case 'staff-action':
      return `staff: ${entry.action}${entry.queue ? ` in ${entry.queue}` : ''}, ${plural(entry.count, 'job')} (${entry.who}, ${entry.via})`;
  }
}

/** The README's failure table. */
function whatToDo({ record: r, orderId: id, jobs }: OrderStatus): string | undefined {
  if (!r && jobs.length === 0)
    return `nothing yet, if the order is new (webhooks and the reconciliation pass bring it in); to send it now: connector order ${id} --replay`;
  if (r?.state === 'failed')
    return `fix the order in Shopify (the change brings it back by itself), or send it as it is: connector order ${id} --replay`;
  if (r?.state === 'sending')
    return 'nothing: the job asks the provider whether the shipment exists before it sends again';
  return undefined;
}

function formatSync(shipment: StoredOrderStatus['shipment']): string[] {
  if (!shipment) return ['  Status sync: not following a shipment for this order (yet)'];
  const label = shipment.statusLabel ?? STATUS_LABELS[shipment.status] ?? shipment.status;
  return [
    '  Status sync:',
    `    Provider status: ${shipment.status} (${label}), changed ${shipment.updatedAt}`,
    `    Carrier and tracking number: ${
      shipment.trackingNumber
        ? `${shipment.carrier ?? 'carrier unknown'} ${shipment.trackingNumber}`
        : 'none yet'
    }`,
    `    Shopify has: ${shopifySide(shipment).join('; ')}`,
    ...(shipment.fulfilBlockedReason
      ? [
          `    Not fulfilled in Shopify: the order is ${shipment.fulfilBlockedReason} (tag ${ORDER_TAGS.notFulfilled}); release it, then replay its fulfil-shipment job.`,
        ]
      : []),
  ];
}

function shopifySide(s: NonNullable<StoredOrderStatus['shipment']>): string[] {
  const fulfilled = fulfilledInShopify(s);
  return [
    s.newestStatusWritten
      ? `this status in the ${METAFIELD_NAMESPACE} metafields`
      : s.writtenStatus
        ? 'an earlier status in the metafields (this one is queued)'
        : 'no status metafields (the order shows the status itself, or they are queued)',
    s.progressReportedAt && `in progress reported ${s.progressReportedAt}`,
    fulfilled
      ? `fulfilled with tracking number ${s.fulfilledNumber}`
      : s.trackingNumber && s.unfulfillableNumber === s.trackingNumber
        ? 'no fulfillment: nothing of the order was left to fulfil (its fulfillment orders are closed or cancelled)'
        : isHandedToCarrier(s.stage) && 'not fulfilled yet',
    fulfilled && s.deliveryRecordedAt && `delivered recorded ${s.deliveryRecordedAt}`,
    s.cancelFlaggedAt &&
      `cancelled at the provider flagged ${s.cancelFlaggedAt} (tag ${ORDER_TAGS.cancelledAtProvider})`,
  ].filter((line): line is string => Boolean(line));
}

function formatLive(live: OrderStatus['live']): string[] {
  if (!live) return [];
  const asked =
    '  Asked the provider (GET /shipments/{reference}, one request from the shared budget):';
  if ('error' in live) return [`${asked} no answer: ${live.error}`];
  const s = live.shipment;
  if (!s.found) return [`${asked} it holds no shipment for this order.`];
  return [
    asked,
    `    Order number ${s.orderNumber}, status ${s.status} (${s.statusLabel}), updated ${s.updatedAt}`,
    `    Tracking: ${s.trackingNumber ? `${s.trackingNumber}${s.carrier ? ` (${s.carrier})` : ''}` : 'none yet'}`,
  ];
}

function formatPartnerQueues(state: StoredOrderStatus['partnerQueues']): string {
  if (state.pause?.reason === 'url_misconfigured') {
    return `  PAUSED: the provider answered 404 to a route it always has (at ${state.pause.since}): PARTNER_API_URL is misconfigured (it must include /api/v1); ${state.queues.join(', ')} wait until it is fixed (checked every minute).`;
  }
  if (state.tokenRefusedSince) {
    return `  PAUSED: the provider refused the token (401) at ${state.tokenRefusedSince}; ${state.queues.join(', ')} wait until a valid PARTNER_API_TOKEN works (checked every minute).`;
  }
  if (state.paused.length > 0) {
    return `  PAUSED: ${state.paused.join(', ')} (paused by hand: no token refusal is recorded).`;
  }
  return `  Provider queues (${state.queues.join(', ')}): running`;
}
