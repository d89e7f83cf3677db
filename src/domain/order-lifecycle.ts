import type { Config } from '../../config/index.js';
import { checkEligibility } from './eligibility.js';
import type { StoreOrder } from './order.js';
import { carriesRegistrationMarks, marksSeenOn } from './order-marks.js';
import { describeLeftOut, encodeSentUnits, shipmentContents } from './shipment-contents.js';
import {
  changedParts,
  decodeFingerprint,
  encodeFingerprint,
  encodeSettings,
  shipmentFingerprint,
} from './shipment-fingerprint.js';
import { buildShipmentRequest } from './shipment-request.js';

/** An order's life as one pure state machine: callers load, ask here, act and record. */

export interface OrderEvent {
  orderId: string;
  /** What saw it: a webhook topic, reconcile, backfill, replay. */
  source: string;
  cancelled: boolean;
  /** The order's name (`#1003`) when the event carries it: its job is named after it. */
  orderName?: string;
  /** The body shows receiver and lines unchanged: a registered order needs no edit check. */
  noEditShown?: boolean;
}

/** Source of `connector order <id> --replay`: staff ask, so even an unchanged refusal is sent. */
export const REPLAY_SOURCE = 'replay';

/**
 * `unseen`: no record (never seen, or forgotten); `sending`: a create request's answer is not
 * recorded; `waiting`: skipped until Shopify releases what it holds.
 */
export type OrderStage =
  | 'unseen'
  | 'sending'
  | 'registered'
  | 'cancelled_after_registration'
  | 'skipped'
  | 'waiting'
  | 'failed';

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

/** Registered: flag a cancellation once; else retry a given-up mark and look for an edit. */
export function onOrderEvent(stage: OrderStage, cancelled: boolean) {
  if (!isRegistered(stage)) return 'to_job';
  return cancelled ? 'flag_cancelled' : 'follow_up_registered';
}

/**
 * By the create job's BullMQ state (none or `unknown`: no job). A running one may have read the
 * order before this event, so looks once more; a completed one is replaced, a failed one retried
 * with every attempt: the event may have changed the order.
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

/** Every step of the look works from this one answer. */
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
  const fingerprint = shipmentFingerprint(order, settings.shipment, contents);
  // Digital lines never ship; the rest tells staff why the parcel is smaller than the order.
  const physical = contents.leftOut.filter((units) => units.reason !== 'digital');
  return {
    cancelled: Boolean(order.cancelledAt),
    // The marks of a registration whose record Redis lost.
    carriesRegistrationMarks: carriesRegistrationMarks(order),
    eligibility,
    fingerprint,
    mappable: mapped?.ok ?? false,
    contents,
    mapped,
    leftOut: mapped && physical.length > 0 ? describeLeftOut(physical) : undefined,
    seen: marksSeenOn(order),
    /**
     * What the record keeps of this look: the fingerprint judges a refusal, a give-up and a later
     * edit; a sent request's units bound its fulfilment; its settings tell a setting changed since.
     */
    kept: {
      fingerprint: encodeFingerprint(fingerprint),
      units: encodeSentUnits(contents),
      settings: encodeSettings(settings.shipment, order),
    },
  };
}

/** What a look decides by. */
export type LoadedOrder = Pick<
  ReturnType<typeof judgeOrder>,
  'cancelled' | 'carriesRegistrationMarks' | 'eligibility' | 'fingerprint' | 'mappable'
>;

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
  fromEvent: boolean;
}): LookDecision {
  const { record, order } = look;
  const stage = stageOf(record);
  if (isRegistered(stage)) {
    return { do: order?.cancelled ? 'flag_cancelled' : 'confirm_registered' };
  }
  // A request whose answer never came, or marks of a registration whose record was lost: the
  // provider may hold a shipment. Ask before skipping, or before failing an unchanged order again.
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
 * Taking a partner-budget place first means a spent budget wastes no Shopify read. Read first
 * instead when a request is unlikely: registered, waiting (most looks find it still waiting), or
 * refused and back by an event (most, e.g. its own failure mark's, find it unchanged).
 */
export function takesPlaceBeforeLoading(record: RecordedStage | null, fromEvent: boolean): boolean {
  const stage = stageOf(record);
  if (isRegistered(stage) || stage === 'waiting') return false;
  return !(fromEvent && stage === 'failed' && record?.failedFingerprint);
}

/**
 * POST /shipments. 201: this request made the shipment, kept as what the provider holds. 200: an
 * earlier one did; an edit since is reported. 422: its send is forgotten unless an earlier send
 * is still unanswered (it may have made the shipment).
 */
export function onCreateAnswer(answer: 'created' | 'existing' | 'invalid', requestOut: boolean) {
  if (answer === 'invalid') return requestOut ? 'refuse' : 'refuse_forgetting_send';
  return answer === 'created' ? 'record_made' : 'record_existing';
}

/**
 * Looks after the first, each for events during the one before. Only an order changing again and
 * again uses them up; its next event or reconciliation looks again.
 */
export const MAX_LOOKS_AGAIN = 3;

/** After look `look` (0 the first), with or without an event during it. */
export function afterLook(changed: boolean, look: number) {
  if (!changed) return 'done';
  return look < MAX_LOOKS_AGAIN ? 'look_again' : 'give_over';
}

/** Non-refusals rerun the job for the same event; a staff retry refused as before is told so. */
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
 * A failure is judged by the order as refused, else the last request sent (what a give-up was
 * about); none when interrupted, which says nothing of the order. Marked for a new reason only:
 * writing the mark brings the order back here.
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
