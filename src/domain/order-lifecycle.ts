import type { Eligibility } from './eligibility.js';
import {
  changedParts,
  decodeFingerprint,
  type ShipmentFingerprint,
} from './shipment-fingerprint.js';

/**
 * An order's life at the connector, as one state machine: where an order stands, and for each
 * thing that happens to it (an order event, a staff replay, a run of its create job, the
 * provider's answer, a give-up) what comes next. Pure: the create job and the intake load what
 * they need, ask here, act on the answer and record it.
 */

/** The source of `connector order <id> --replay`: staff ask, so even an unchanged refusal is sent. */
export const REPLAY_SOURCE = 'replay';

/**
 * Where an order stands, as its record keeps it (src/records/order-records.ts, `state` and the
 * fields below): `unseen` has no record (never seen, or forgotten), `sending` sent a create
 * request whose answer is not recorded, `waiting` is skipped until Shopify releases what it holds.
 */
export type OrderStage =
  | 'unseen'
  | 'sending'
  | 'registered'
  | 'cancelled_after_registration'
  | 'skipped'
  | 'waiting'
  | 'failed';

/** The record's fields the decisions read. */
export interface RecordedStage {
  state: string;
  skipCode?: string;
  cancelledAfterRegistrationAt?: string;
  /** A create request left whose answer never came: the provider may hold a shipment. */
  sentAt?: string;
  /** The order as it was when it failed: refused, or given up on. */
  failedFingerprint?: string;
  sentFingerprint?: string;
  reason?: string;
}

export function stageOf(record: RecordedStage | null): OrderStage {
  if (!record) return 'unseen';
  if (record.state === 'registered') {
    return record.cancelledAfterRegistrationAt ? 'cancelled_after_registration' : 'registered';
  }
  if (record.state === 'skipped' && record.skipCode === 'held') return 'waiting';
  return record.state as OrderStage;
}

export function isRegisteredStage(stage: OrderStage): boolean {
  return stage === 'registered' || stage === 'cancelled_after_registration';
}

// --- An order event (webhook, reconciliation, backfill) or a staff replay, at the intake ---
// (The webhook intake's script in jobs/create-shipment/accept-delivery.ts takes the common rows of
// onEventForJob in one step, and leaves the others to this path.)

/** A registered order's event needs no create job; any other goes on to the order's job. */
export function onOrderEvent(
  stage: OrderStage,
  cancelled: boolean,
): 'follow_up_registered' | 'flag_cancelled' | 'to_job' {
  if (!isRegisteredStage(stage)) return 'to_job';
  // Registered: flag a cancellation for staff once; else retry a mark that gave up, check for
  // an edit.
  return cancelled ? 'flag_cancelled' : 'follow_up_registered';
}

/** The order's create job as BullMQ has it: `none` when there is none (or it just went). */
export type JobState = 'none' | 'queued' | 'active' | 'completed' | 'failed';

export type JobAction =
  | 'add'
  /** The job ended without a shipment (skipped): a fresh one, this event may have changed that. */
  | 'replace_finished'
  /** The job failed: run it again with every attempt. */
  | 'retry_failed'
  /** The running job may have read the order before this event: it looks once more. */
  | 'ask_running_job'
  | 'leave';

export function onEventForJob(job: JobState): JobAction {
  return EVENT_ON_JOB[job];
}

const EVENT_ON_JOB: Record<JobState, JobAction> = {
  none: 'add',
  queued: 'leave',
  active: 'ask_running_job',
  completed: 'replace_finished',
  failed: 'retry_failed',
};

/**
 * Who asked for the next run: an order event's run does not resend an unchanged refusal; a
 * staff replay's does, and starts the retry schedule's count of interruptions afresh.
 */
export function askedBy(source: string): 'staff' | 'event' {
  return source === REPLAY_SOURCE ? 'staff' : 'event';
}

// --- One look of the create job at the freshly loaded order ---

/** The order as the run loaded it, judged: null when the store no longer has it. */
export interface LoadedOrder {
  cancelled: boolean;
  /** It carries the marks of a registration (a record Redis lost). */
  carriesRegistrationMarks: boolean;
  eligibility: Eligibility;
  fingerprint: ShipmentFingerprint;
  /** The request could be built: every field within the API's limits. */
  mappable: boolean;
}

export type LookDecision =
  /** Registered already: mark it again (a run cut off before its mark job was queued). */
  | { do: 'confirm_registered' }
  | { do: 'flag_cancelled' }
  /**
   * A request left whose answer never came, or the order carries a registration's marks: ask
   * the provider first. Found: `found`; none: forget the send, then `otherwise`.
   */
  | { do: 'look_up'; found: 'registered' | 'flag_cancelled'; otherwise: LookDecision }
  /** Not to ship (yet): `wait` reads it again later; `clearFailureMarks`: refused, then cancelled. */
  | { do: 'skip'; code: string; reason: string; wait: boolean; clearFailureMarks: boolean }
  /** Failed as it still stands, run for its own event: fails again without calling the provider. */
  | { do: 'refuse_unchanged' }
  | { do: 'refuse' }
  | { do: 'send' };

export interface Look {
  record: RecordedStage | null;
  order: LoadedOrder | null;
  /** Asked for by an order event, not by staff. */
  fromEvent: boolean;
}

export function decideLook({ record, order, fromEvent }: Look): LookDecision {
  const stage = stageOf(record);
  const requestOut = Boolean(record?.sentAt);
  if (isRegisteredStage(stage)) {
    return order?.cancelled ? { do: 'flag_cancelled' } : { do: 'confirm_registered' };
  }
  const eligibility = order?.eligibility ?? NOT_FOUND;
  if (!eligibility.eligible) {
    const skip: LookDecision = {
      do: 'skip',
      code: eligibility.code,
      reason: eligibility.reason,
      wait: eligibility.code === 'held',
      clearFailureMarks: stage === 'failed' && eligibility.code === 'cancelled',
    };
    if (!requestOut && !order?.carriesRegistrationMarks) return skip;
    const found = !order || order.cancelled ? 'flag_cancelled' : 'registered';
    return { do: 'look_up', found, otherwise: skip };
  }
  if (fromEvent && unchangedSinceFailure(record, order!.fingerprint)) {
    const refuse: LookDecision = { do: 'refuse_unchanged' };
    return requestOut ? { do: 'look_up', found: 'registered', otherwise: refuse } : refuse;
  }
  return order!.mappable ? { do: 'send' } : { do: 'refuse' };
}

const NOT_FOUND = {
  eligible: false,
  code: 'not_found',
  reason: 'The order no longer exists in the store.',
} as const;

/**
 * Whether the order stands as it was when it failed: sending it again would only be refused
 * again (or start another round of retries against an outage).
 */
function unchangedSinceFailure(record: RecordedStage | null, current: ShipmentFingerprint) {
  if (record?.state !== 'failed') return false;
  const failed = decodeFingerprint(record.failedFingerprint);
  return failed !== null && changedParts(failed, current).length === 0;
}

/**
 * A run may take the partner budget's place before it reads the order, so a spent budget sends
 * the job back to wait before a Shopify read is spent on it; a registered or waiting order is
 * read first instead (most looks at a waiting one find it still waiting, and take no place).
 */
export function takesPlaceBeforeLoading(record: RecordedStage | null): boolean {
  const stage = stageOf(record);
  return !isRegisteredStage(stage) && stage !== 'waiting';
}

// --- The provider's answer to POST /shipments ---

export type CreateAnswer = 'created' | 'existing' | 'invalid';

export type AnswerDecision =
  /** `compareWithSent`: a 200 returns the shipment an earlier request made; report an edit since. */
  | { do: 'record_registered'; keepRequest: boolean; compareWithSent: boolean }
  /** `forgetSend`: no earlier request may have made a shipment, so this one's mark goes. */
  | { do: 'record_refused'; forgetSend: boolean };

export function onCreateAnswer(answer: CreateAnswer, requestOutBefore: boolean): AnswerDecision {
  if (answer === 'invalid') return { do: 'record_refused', forgetSend: !requestOutBefore };
  return {
    do: 'record_registered',
    keepRequest: answer === 'created',
    compareWithSent: answer === 'existing',
  };
}

// --- After each look, after a failed run, after a give-up ---

/**
 * Looks one run may take after its first. Each answers the events that came during the look
 * before it, so only an order changed again and again while it is being registered uses them up;
 * the next event or reconciliation pass then looks again.
 */
export const MAX_LOOKS_AGAIN = 3;

/** After look `look` (0 first): another if an event came during it, while looks are left. */
export function afterLook(changed: boolean, look: number): 'done' | 'look_again' | 'give_over' {
  if (!changed) return 'done';
  return look < MAX_LOOKS_AGAIN ? 'look_again' : 'give_over';
}

/**
 * A run that failed. A refusal ends it; anything else runs the job again (a retry, a wait, a
 * pause), asked for by the same event. A staff retry refused again with the order as it was
 * refused before (same fingerprint, same reason) says so.
 */
export function onRunFailed(run: {
  refused: boolean;
  fromEvent: boolean;
  before: RecordedStage | null;
  after: RecordedStage | null;
}): 'note_event_run' | 'refused_unchanged' | 'rethrow' {
  if (!run.refused) return run.fromEvent ? 'note_event_run' : 'rethrow';
  const { before, after } = run;
  if (run.fromEvent || before?.state !== 'failed' || !before.failedFingerprint) return 'rethrow';
  const same =
    after?.failedFingerprint === before.failedFingerprint && after.reason === before.reason;
  return same ? 'refused_unchanged' : 'rethrow';
}

/**
 * A failure recorded (refused, or given up on): the fingerprint kept with it (the order as
 * refused; else the last request sent, which a give-up was about; none for an interrupted job,
 * which says nothing about the order), and whether to mark the order (only a new reason: writing
 * the order brings it back here).
 */
export function onFailure(
  previous: RecordedStage | null,
  reason: string,
  judged: { fingerprint?: string; interrupted?: boolean },
): { failedFingerprint: string | undefined; mark: boolean } {
  return {
    failedFingerprint: judged.interrupted
      ? undefined
      : (judged.fingerprint ?? previous?.sentFingerprint),
    mark: previous?.state !== 'failed' || previous.reason !== reason,
  };
}
