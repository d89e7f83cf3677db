import type { Config } from '../../config/index.js';
import { checkEligibility, type Eligibility } from './eligibility.js';
import type { StoreOrder } from './order.js';
import { carriesRegistrationMarks } from './order-marks.js';
import { shipmentContents } from './shipment-contents.js';
import {
  changedParts,
  decodeFingerprint,
  type ShipmentFingerprint,
  shipmentFingerprint,
} from './shipment-fingerprint.js';
import { buildShipmentRequest } from './shipment-request.js';

/**
 * An order's life at the connector, as one state machine: where an order stands, and for each
 * thing that happens to it (an order event, a staff replay, a look of its create job, the
 * provider's answer, a failure) what comes next. Pure: the intake and the create job load what
 * they need, ask here, act on the answer and record it.
 */

/** Something that says an order may need its shipment: a webhook, reconciliation, backfill, staff. */
export interface OrderEvent {
  orderId: string;
  /** What saw it: a webhook topic, reconcile, backfill, replay. */
  source: string;
  cancelled: boolean;
  /** The order's name (`#1003`) when the event carries it: its job is named after it. */
  orderName?: string;
  /**
   * A webhook body that shows the order's receiver and lines as its previous body did (an
   * orders/updated for the connector's own tag or fulfilment): a registered order needs no edit
   * check for it.
   */
  noEditShown?: boolean;
}

/** The source of `connector order <id> --replay`: staff ask, so even an unchanged refusal is sent. */
export const REPLAY_SOURCE = 'replay';

/**
 * Where an order stands, as its record keeps it: `unseen` has no record (never seen, or
 * forgotten), `sending` sent a create request whose answer is not recorded, `waiting` is skipped
 * until Shopify releases what it holds.
 */
export type OrderStage =
  | 'unseen'
  | 'sending'
  | 'registered'
  | 'cancelled_after_registration'
  | 'skipped'
  | 'waiting'
  | 'failed';

/** The record's fields the decisions read (src/records/order-records.ts). */
export interface RecordedStage {
  state: string;
  skipCode?: string;
  /** Why it is skipped or failed, in words an admin can act on. */
  reason?: string;
  cancelledAfterRegistrationAt?: string;
  /** When a create request was last sent: the provider may hold a shipment we never heard of. */
  sentAt?: string;
  /** Shipment fingerprints: the order as it failed (refused or given up on); what was sent. */
  failedFingerprint?: string;
  sentFingerprint?: string;
}

export function stageOf(record: RecordedStage | null): OrderStage {
  if (!record) return 'unseen';
  if (record.state === 'registered' && record.cancelledAfterRegistrationAt) {
    return 'cancelled_after_registration';
  }
  if (record.state === 'skipped' && record.skipCode === 'held') return 'waiting';
  return record.state as OrderStage;
}

const isRegistered = (stage: OrderStage) =>
  stage === 'registered' || stage === 'cancelled_after_registration';

// --- An order event (webhook, reconciliation, backfill) or a staff replay, at the intake ---

/**
 * A registered order needs no create job: a cancellation is flagged for staff once; else a mark
 * that gave up is retried and an edit looked for. Any other order goes on to its job.
 */
export function onOrderEvent(stage: OrderStage, cancelled: boolean) {
  if (!isRegistered(stage)) return 'to_job';
  return cancelled ? 'flag_cancelled' : 'follow_up_registered';
}

/**
 * By the state of the order's create job (BullMQ's word; none or `unknown`: there is none): a
 * waiting job is left; a running one may have read the order before this event, so it looks
 * once more; one that ended without a shipment (skipped) is replaced, one that failed retried
 * with every attempt, since this event may have changed the order.
 */
export function onEventForJob(job: string | undefined) {
  if (job === undefined || job === 'unknown') return 'add';
  if (job === 'active') return 'ask_running_job';
  if (job === 'completed') return 'replace_finished';
  return job === 'failed' ? 'retry_failed' : 'leave';
}

/** A staff replay resends an unchanged refusal and starts the count of interruptions afresh. */
export function askedBy(source: string): 'staff' | 'event' {
  return source === REPLAY_SOURCE ? 'staff' : 'event';
}

// --- One look of the create job at the freshly loaded order ---

/** The order as the run loaded it, judged. */
export interface LoadedOrder {
  cancelled: boolean;
  /** It carries the marks of a registration (whose record Redis lost). */
  carriesRegistrationMarks: boolean;
  eligibility: Eligibility;
  fingerprint: ShipmentFingerprint;
  /** Its request is within every limit of the API. */
  mappable: boolean;
}

/**
 * The order as the provider would be asked to ship it, judged at `now`: every step of the look
 * works from this one answer.
 */
export function judgeOrder(
  order: StoreOrder,
  settings: Pick<Config, 'shipment' | 'eligibility'>,
  now: Date,
) {
  const contents = shipmentContents(order, settings.shipment, { now });
  const eligibility = checkEligibility(order, settings.eligibility, contents);
  const mapped = eligibility.eligible
    ? buildShipmentRequest(order, settings.shipment, contents)
    : null;
  return {
    cancelled: Boolean(order.cancelledAt),
    carriesRegistrationMarks: carriesRegistrationMarks(order),
    eligibility,
    fingerprint: shipmentFingerprint(order, settings.shipment, contents),
    mappable: mapped?.ok ?? false,
    contents,
    mapped,
  };
}

export type LookDecision =
  /** Mark it again: a run cut off before its mark job was queued left it unmarked. */
  | { do: 'confirm_registered' }
  | { do: 'flag_cancelled' }
  /** Ask the provider first; found: `found`, none: forget the send, then `otherwise`. */
  | { do: 'look_up'; found: 'registered' | 'flag_cancelled'; otherwise: LookDecision }
  /** `wait`: read again later; `clearFailureMarks`: refused, then cancelled. */
  | { do: 'skip'; code: string; reason: string; wait: boolean; clearFailureMarks: boolean }
  | { do: 'refuse_unchanged' }
  | { do: 'refuse' }
  | { do: 'send' };

export function decideLook(look: {
  record: RecordedStage | null;
  order: LoadedOrder | null;
  /** Asked for by an order event, not by staff. */
  fromEvent: boolean;
}): LookDecision {
  const { record, order } = look;
  const stage = stageOf(record);
  if (isRegistered(stage)) {
    return { do: order?.cancelled ? 'flag_cancelled' : 'confirm_registered' };
  }
  // A request left whose answer never came (a timeout, a crash), or the order carries the marks
  // of a registration whose record was lost: the provider may hold a shipment. Ask before
  // skipping, or before failing an unchanged order again.
  const requestOut = Boolean(record?.sentAt);
  const eligibility = order?.eligibility ?? NOT_FOUND;
  if (!eligibility.eligible) {
    const { code, reason } = eligibility;
    const clearFailureMarks = stage === 'failed' && code === 'cancelled';
    const skip = { do: 'skip', code, reason, wait: code === 'held', clearFailureMarks } as const;
    if (!requestOut && !order?.carriesRegistrationMarks) return skip;
    const found = !order || order.cancelled ? 'flag_cancelled' : 'registered';
    return { do: 'look_up', found, otherwise: skip };
  }
  // Failed as it still stands: its own events (the failure's mark, reconciliation passes) would
  // only have it refused again, or start another round of retries against an outage.
  if (look.fromEvent && record?.state === 'failed') {
    const failed = decodeFingerprint(record.failedFingerprint);
    if (failed && changedParts(failed, order!.fingerprint).length === 0) {
      const refuse = { do: 'refuse_unchanged' } as const;
      return requestOut ? { do: 'look_up', found: 'registered', otherwise: refuse } : refuse;
    }
  }
  return { do: order!.mappable ? 'send' : 'refuse' };
}

const NOT_FOUND = {
  eligible: false,
  code: 'not_found',
  reason: 'The order no longer exists in the store.',
} as const;

/**
 * A run takes its place in the partner budget before it reads the order, so a spent budget sends
 * the job back to wait before a Shopify read is spent on it. Read first instead: a registered or
 * waiting order (most looks find it still waiting), and a refused one an event brings back (most
 * such events, its own failure mark's say, find it unchanged and refused again with no request).
 */
export function takesPlaceBeforeLoading(record: RecordedStage | null, fromEvent: boolean): boolean {
  const stage = stageOf(record);
  if (isRegistered(stage) || stage === 'waiting') return false;
  return !(fromEvent && stage === 'failed' && record?.failedFingerprint);
}

/**
 * The answer to POST /shipments. 201: the request made the shipment, and is kept as what the
 * provider holds. 200: an earlier request made it; an edit since is reported. 422: refused; this
 * request made nothing, so its send is forgotten unless an earlier one is still unanswered.
 */
export function onCreateAnswer(answer: 'created' | 'existing' | 'invalid', requestOut: boolean) {
  if (answer === 'invalid') return requestOut ? 'refuse' : 'refuse_forgetting_send';
  return answer === 'created' ? 'record_made' : 'record_existing';
}

/**
 * Looks a run may take after its first, each for the events during the one before: only an
 * order changed again and again uses them up; its next event or reconciliation then looks again.
 */
export const MAX_LOOKS_AGAIN = 3;

/** After look `look` (0 the first), with or without an event during it. */
export function afterLook(changed: boolean, look: number) {
  if (!changed) return 'done';
  return look < MAX_LOOKS_AGAIN ? 'look_again' : 'give_over';
}

/**
 * A run that threw. Anything but a refusal runs the job again (a retry, a wait, a pause), asked
 * for by the same event. A staff retry refused again as before (same fingerprint, same reason)
 * is told that it changed nothing.
 */
export function onRunFailed(run: {
  refused: boolean;
  fromEvent: boolean;
  before: RecordedStage | null;
  after: RecordedStage | null;
}) {
  const { before, after } = run;
  if (!run.refused) return run.fromEvent ? 'note_event_run' : 'rethrow';
  if (run.fromEvent || before?.state !== 'failed' || !before.failedFingerprint) return 'rethrow';
  const same =
    after?.failedFingerprint === before.failedFingerprint && after.reason === before.reason;
  return same ? 'refused_unchanged' : 'rethrow';
}

/**
 * A failure (refused, or given up on) keeps the fingerprint it is judged by: the order as
 * refused, else the last request sent, which a give-up was about; none for an interrupted job,
 * which says nothing about the order. The order is marked for a new reason only: writing it
 * brings it back here.
 */
export function onFailure(
  previous: RecordedStage | null,
  reason: string,
  judged: { fingerprint?: string | undefined; interrupted?: boolean | undefined },
) {
  return {
    failedFingerprint: judged.interrupted
      ? undefined
      : (judged.fingerprint ?? previous?.sentFingerprint),
    mark: previous?.state !== 'failed' || previous.reason !== reason,
  };
}
