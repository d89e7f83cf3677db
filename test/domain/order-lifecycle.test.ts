import { describe, expect, it } from 'vitest';
import {
  afterLook,
  decideLook,
  type LoadedOrder,
  type LookDecision,
  MAX_LOOKS_AGAIN,
  type OrderStage,
  onCreateAnswer,
  onEventForJob,
  onFailure,
  onOrderEvent,
  onRunFailed,
  type RecordedStage,
  stageOf,
  takesPlaceBeforeLoading,
} from '../../src/domain/order-lifecycle.js';
import {
  encodeFingerprint,
  type ShipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';

const AS_REFUSED: ShipmentFingerprint = {
  receiver: 'a'.repeat(16),
  lines: 'b'.repeat(16),
  weights: 'c'.repeat(16),
};
const EDITED: ShipmentFingerprint = { ...AS_REFUSED, receiver: 'd'.repeat(16) };
const AT = '2026-11-26T10:00:00.000Z';

const RECORDS = {
  none: null,
  sending: { state: 'sending', sentAt: AT },
  registered: { state: 'registered' },
  flagged: { state: 'registered', cancelledAfterRegistrationAt: AT },
  skipped: { state: 'skipped', skipCode: 'not_paid' },
  waiting: { state: 'skipped', skipCode: 'held' },
  skippedSent: { state: 'skipped', skipCode: 'not_paid', sentAt: AT },
  refused: { state: 'failed', reason: 'no postal code', failedFingerprint: fp(AS_REFUSED) },
  gaveUpSent: { state: 'failed', reason: '503', failedFingerprint: fp(AS_REFUSED), sentAt: AT },
  interrupted: { state: 'failed', reason: 'stalled' },
} satisfies Record<string, RecordedStage | null>;
type RecordName = keyof typeof RECORDS;

const ORDERS = {
  gone: null,
  paid: order(),
  edited: order({ fingerprint: EDITED }),
  unmappable: order({ mappable: false }),
  unpaid: order({ eligibility: { eligible: false, code: 'not_paid', reason: 'Not paid.' } }),
  held: order({ eligibility: { eligible: false, code: 'held', reason: 'On hold.' } }),
  cancelled: order({
    cancelled: true,
    eligibility: { eligible: false, code: 'cancelled', reason: 'Cancelled.' },
  }),
  unpaidMarked: order({
    carriesRegistrationMarks: true,
    eligibility: { eligible: false, code: 'not_paid', reason: 'Not paid.' },
  }),
  cancelledMarked: order({
    cancelled: true,
    carriesRegistrationMarks: true,
    eligibility: { eligible: false, code: 'cancelled', reason: 'Cancelled.' },
  }),
} satisfies Record<string, LoadedOrder | null>;
type OrderName = keyof typeof ORDERS;

describe('stageOf: the record read as a stage', () => {
  it.each<[RecordName, OrderStage]>([
    ['none', 'unseen'],
    ['sending', 'sending'],
    ['registered', 'registered'],
    ['flagged', 'cancelled_after_registration'],
    ['skipped', 'skipped'],
    ['waiting', 'waiting'],
    ['refused', 'failed'],
  ])('%s → %s', (record, stage) => {
    expect(stageOf(RECORDS[record])).toBe(stage);
  });
});

describe('onOrderEvent, onEventForJob: an event at the intake, by stage and job', () => {
  it.each<[OrderStage, boolean, ReturnType<typeof onOrderEvent>]>([
    ['registered', false, 'follow_up_registered'],
    ['registered', true, 'flag_cancelled'],
    ['cancelled_after_registration', true, 'flag_cancelled'],
    ['cancelled_after_registration', false, 'follow_up_registered'],
    ['unseen', false, 'to_job'],
    ['unseen', true, 'to_job'],
    ['failed', true, 'to_job'],
  ])('%s, cancelled %s → %s', (stage, cancelled, action) => {
    expect(onOrderEvent(stage, cancelled)).toBe(action);
  });

  it.each<[string | undefined, ReturnType<typeof onEventForJob>]>([
    [undefined, 'add'],
    ['unknown', 'add'],
    ['waiting', 'leave'],
    ['delayed', 'leave'],
    ['prioritized', 'leave'],
    ['active', 'ask_running_job'],
    ['completed', 'replace_finished'],
    ['failed', 'retry_failed'],
  ])('job %s → %s', (job, action) => {
    expect(onEventForJob(job)).toBe(action);
  });
});

describe('decideLook: one look of the create job at the loaded order', () => {
  const SKIP_UNPAID = skip('not_paid', 'Not paid.');
  it.each<[RecordName, OrderName, 'event' | 'staff', LookDecision]>([
    ['none', 'paid', 'event', { do: 'send' }],
    ['none', 'unmappable', 'event', { do: 'refuse' }],
    ['sending', 'paid', 'event', { do: 'send' }],
    ['registered', 'paid', 'event', { do: 'confirm_registered' }],
    ['registered', 'cancelled', 'event', { do: 'flag_cancelled' }],
    ['flagged', 'cancelled', 'event', { do: 'flag_cancelled' }],
    ['registered', 'gone', 'event', { do: 'confirm_registered' }],
    ['none', 'unpaid', 'event', SKIP_UNPAID],
    ['none', 'held', 'event', skip('held', 'On hold.', { wait: true })],
    ['waiting', 'paid', 'event', { do: 'send' }],
    ['refused', 'cancelled', 'event', skip('cancelled', 'Cancelled.', { clearFailureMarks: true })],
    ['skipped', 'gone', 'event', skip('not_found', 'The order no longer exists in the store.')],
    [
      'sending',
      'gone',
      'event',
      {
        do: 'look_up',
        found: 'flag_cancelled',
        otherwise: skip('not_found', 'The order no longer exists in the store.'),
      },
    ],
    [
      'skippedSent',
      'unpaid',
      'event',
      { do: 'look_up', found: 'registered', otherwise: SKIP_UNPAID },
    ],
    [
      'none',
      'unpaidMarked',
      'event',
      { do: 'look_up', found: 'registered', otherwise: SKIP_UNPAID },
    ],
    [
      'none',
      'cancelledMarked',
      'event',
      { do: 'look_up', found: 'flag_cancelled', otherwise: skip('cancelled', 'Cancelled.') },
    ],
    ['refused', 'paid', 'event', { do: 'refuse_unchanged' }],
    ['refused', 'paid', 'staff', { do: 'send' }],
    ['refused', 'edited', 'event', { do: 'send' }],
    ['interrupted', 'paid', 'event', { do: 'send' }],
    [
      'gaveUpSent',
      'paid',
      'event',
      { do: 'look_up', found: 'registered', otherwise: { do: 'refuse_unchanged' } },
    ],
    ['gaveUpSent', 'paid', 'staff', { do: 'send' }],
  ])('record %s, order %s, run by %s', (record, loaded, by, decision) => {
    expect(
      decideLook({ record: RECORDS[record], order: ORDERS[loaded], fromEvent: by === 'event' }),
    ).toEqual(decision);
  });
});

describe('takesPlaceBeforeLoading: the budget place before the order is read', () => {
  it.each<[RecordName, 'event' | 'staff', boolean]>([
    ['none', 'event', true],
    ['refused', 'staff', true],
    ['refused', 'event', false],
    ['skipped', 'event', true],
    ['waiting', 'event', false],
    ['registered', 'event', false],
    ['flagged', 'staff', false],
  ])('%s, run by %s → %s', (record, by, takes) => {
    expect(takesPlaceBeforeLoading(RECORDS[record], by === 'event')).toBe(takes);
  });
});

describe('onCreateAnswer: the answer to POST /shipments', () => {
  it.each<[Parameters<typeof onCreateAnswer>[0], boolean, ReturnType<typeof onCreateAnswer>]>([
    ['created', false, 'record_made'],
    ['existing', true, 'record_existing'],
    ['existing', false, 'record_existing'],
    ['invalid', false, 'refuse_forgetting_send'],
    ['invalid', true, 'refuse'],
  ])('%s, a request out before %s → %s', (answer, out, decision) => {
    expect(onCreateAnswer(answer, out)).toBe(decision);
  });
});

describe('afterLook: events during the look', () => {
  it('is done when none came, looks again while looks are left, then gives over', () => {
    expect(afterLook(false, 0)).toBe('done');
    expect(afterLook(true, 0)).toBe('look_again');
    expect(afterLook(true, MAX_LOOKS_AGAIN - 1)).toBe('look_again');
    expect(afterLook(true, MAX_LOOKS_AGAIN)).toBe('give_over');
  });
});

describe('onRunFailed: a run that threw', () => {
  const refusedAgain = {
    state: 'failed',
    reason: 'no postal code',
    failedFingerprint: fp(AS_REFUSED),
  };
  it.each<[string, Parameters<typeof onRunFailed>[0], ReturnType<typeof onRunFailed>]>([
    ['an outage, run by an event', run({ refused: false, fromEvent: true }), 'note_event_run'],
    ['an outage, run by staff', run({ refused: false }), 'rethrow'],
    ['refused, run by an event', run({ refused: true, fromEvent: true }), 'rethrow'],
    ['refused first time, by staff', run({ refused: true, after: refusedAgain }), 'rethrow'],
    [
      'refused again as before, by staff',
      run({ refused: true, before: RECORDS.refused, after: refusedAgain }),
      'refused_unchanged',
    ],
    [
      'refused again for another reason',
      run({ refused: true, before: RECORDS.refused, after: { ...refusedAgain, reason: '422' } }),
      'rethrow',
    ],
    [
      'refused again after an edit',
      run({
        refused: true,
        before: RECORDS.refused,
        after: { ...refusedAgain, failedFingerprint: fp(EDITED) },
      }),
      'rethrow',
    ],
  ])('%s', (_, failed, next) => {
    expect(onRunFailed(failed)).toBe(next);
  });
});

describe('onFailure: what a failure keeps and marks', () => {
  it('keeps the refused order, else the request sent, and none for an interruption', () => {
    const sent = { state: 'sending', sentFingerprint: 'sent' };
    expect(onFailure(sent, 'r', { fingerprint: 'judged' }).failedFingerprint).toBe('judged');
    expect(onFailure(sent, 'r', {}).failedFingerprint).toBe('sent');
    expect(onFailure(sent, 'r', { interrupted: true }).failedFingerprint).toBeUndefined();
  });

  it('marks the order for a new reason only', () => {
    expect(onFailure(null, 'r', {}).mark).toBe(true);
    expect(onFailure({ state: 'failed', reason: 'r' }, 'r', {}).mark).toBe(false);
    expect(onFailure({ state: 'failed', reason: 'r' }, 'other', {}).mark).toBe(true);
  });
});

function fp(fingerprint: ShipmentFingerprint): string {
  return encodeFingerprint(fingerprint);
}

function order(over: Partial<LoadedOrder> = {}): LoadedOrder {
  return {
    cancelled: false,
    carriesRegistrationMarks: false,
    eligibility: { eligible: true },
    fingerprint: AS_REFUSED,
    mappable: true,
    ...over,
  };
}

function skip(
  code: string,
  reason: string,
  over: { wait?: boolean; clearFailureMarks?: boolean } = {},
): LookDecision {
  return { do: 'skip', code, reason, wait: false, clearFailureMarks: false, ...over };
}

function run(over: Partial<Parameters<typeof onRunFailed>[0]>): Parameters<typeof onRunFailed>[0] {
  return { refused: false, fromEvent: false, before: null, after: null, ...over };
}
