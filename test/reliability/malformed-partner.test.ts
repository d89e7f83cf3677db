import { afterEach, describe, expect, it } from 'vitest';
import { MALFORMED_BODY_KINDS } from '../../src/sandbox/partner/index.js';
import { REDIS_URL } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';
import { orderFigures, orderInputs, type Rig, startRig } from './rig.js';
import { note, report, size } from './size.js';

/** Orders whose create meets each kind of malformed answer. */
const PER_KIND = size(8, 1);
/** Malformed answers to the status sync's reads, of each kind. */
const READS_PER_KIND = size(6, 2);
/** Kinds the connector must take as they are: a valid answer, oddly dressed. */
const VALID_KINDS = ['extra-fields', 'odd-timestamps'];
/** What an admin must read about each unreadable kind. */
const SAID: Record<string, RegExp> = {
  schema: /cannot be read.*expected string/,
  'invalid-json': /cannot be read.*not JSON \(JSON cut off/,
  truncated: /cannot be read.*not JSON \(JSON cut off/,
  html: /Partner API failed on its side \(502\)/,
  empty: /cannot be read.*the body is empty/,
};

let rig: Rig | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  await rig?.close();
  rig = undefined;
});

/**
 * Why each order's create did not go through at once, where an admin sees it: the create job's
 * failure reasons (Bull Board) and the warnings the connector logged about it.
 */
async function createTroubles(r: Rig, ids: string[]): Promise<Record<string, string[]>> {
  if (r.redis.status === 'wait') await r.redis.connect();
  const logged = r
    .logs()
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    })
    .filter((entry) => Number(entry.level) >= 40);
  const reasons: Record<string, string[]> = {};
  for (const id of ids) {
    const [reason, trace] = await r.redis.hmget(
      `${r.prefix}:create-shipment:order-${id}`,
      'failedReason',
      'stacktrace',
    );
    const traces = (JSON.parse(trace ?? '[]') as string[]).map((t) => t.split('\n')[0]!);
    const warnings = logged
      .filter((e) => e.reference === id || e.orderId === id || e.jobId === `order-${id}`)
      .map((e) => `${e.msg}${e.issues ? ` (${e.issues})` : ''}${e.reason ? `: ${e.reason}` : ''}`);
    reasons[id] = [...new Set([...(reason ? [reason] : []), ...traces, ...warnings])];
  }
  return reasons;
}

/** The status sync's failures while its reads met malformed answers. */
function syncTroubles(r: Rig): string[] {
  const reasons = r
    .logs()
    .split('\n')
    .filter((line) => line.includes('"queue":"sync-shipments"'))
    .map((line) => (JSON.parse(line) as { reason?: string }).reason ?? '');
  return [...new Set(reasons)];
}

describe('the provider answers malformed bodies', () => {
  it('to creates and to the status reads: no crash, no duplicate, a clear reason', async () => {
    rig = await startRig({ redisUrl: REDIS_URL });
    const r = rig;
    await r.spawnWorker(0);
    const kinds = MALFORMED_BODY_KINDS;
    const inputs = orderInputs(9_000_000, kinds.length * PER_KIND);
    const ids = inputs.map((o) => o.id as string);
    const started = Date.now();
    const idsByKind: Record<string, string[]> = {};

    // Each kind in turn answers the creates of its orders (the shipment is stored each time).
    for (const [i, kind] of kinds.entries()) {
      const batch = inputs.slice(i * PER_KIND, (i + 1) * PER_KIND);
      idsByKind[kind] = batch.map((o) => o.id as string);
      r.sandbox.failNextWithMalformedBody(kind, {
        count: PER_KIND,
        method: 'POST',
        pathEndsWith: '/shipments',
      });
      await r.placeOrders(batch);
      await waitUntil(() => r.sandbox.malformedPending() === 0, {
        timeoutMs: 60_000,
        what: `the ${kind} answers to be sent`,
      });
    }
    await waitUntil(() => r.check(ids).missing.length + r.check(ids).notMarked.length === 0, {
      timeoutMs: 120_000,
      what: 'every order registered and marked',
    });
    const registered = r.check(ids);
    const reasons = await createTroubles(r, ids);

    // The status sync's reads (list and detail) meet each kind in turn while parcels ship.
    r.shipAll();
    for (const kind of kinds) {
      r.sandbox.failNextWithMalformedBody(kind, { count: READS_PER_KIND, method: 'GET' });
      await waitUntil(() => r.sandbox.malformedPending() === 0, {
        timeoutMs: 60_000,
        what: `the ${kind} answers to the reads to be sent`,
      });
    }
    const done = await r.waitForAll(ids, 120_000);
    const syncReasons = syncTroubles(r);
    const failed = await r.failedJobs();
    const processAlive = r.workers[0]?.child.exitCode === null;

    const reasonsByKind = Object.fromEntries(
      kinds.map((kind) => [kind, [...new Set(idsByKind[kind]!.flatMap((id) => reasons[id]!))]]),
    );
    report('partner malformed answers', {
      orders: ids.length,
      faults: `${kinds.length} kinds × ${PER_KIND} creates, × ${READS_PER_KIND} reads`,
      reasonsByKind,
      syncReasons,
      ...orderFigures(done),
      fulfilments: done.fulfilments,
      failedForGood: failed,
      totalMs: Date.now() - started,
    });
    expect(processAlive).toBe(true);
    expect(registered.duplicates).toEqual([]);
    expect(done).toMatchObject({ shipments: ids.length, duplicates: [], fulfilments: ids.length });
    expect(failed).toEqual({});
    expect(syncReasons.length).toBeGreaterThan(0);
    for (const reason of syncReasons) expect(reason).toMatch(/partner/i);
    expect(syncReasons.join('\n')).toMatch(/GET \/shipments.*the body is empty/);
    expect(syncReasons.join('\n')).toMatch(/GET \/shipments.*not JSON/);
    for (const kind of kinds) {
      if (VALID_KINDS.includes(kind)) {
        // Taken at the first answer: nothing to report.
        expect(reasonsByKind[kind], kind).toEqual([]);
      } else {
        // An admin sees, in words, that the provider's answer was the trouble, and what it was.
        expect(reasonsByKind[kind]!.length, kind).toBeGreaterThan(0);
        for (const reason of reasonsByKind[kind]!) expect(reason, kind).toMatch(/partner/i);
        expect(reasonsByKind[kind]!.join('\n'), kind).toMatch(SAID[kind]!);
      }
    }
  }, 600_000);
});
