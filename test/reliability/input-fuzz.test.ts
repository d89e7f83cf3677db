import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeOrderInput,
  orderWebhookPayload,
  webhookHeaders,
} from '../../src/sandbox/store/index.js';
import { ORDER_TOPICS } from '../../src/server/webhook-route.js';
import { REDIS_URL } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';
import {
  orderFigures,
  orderInputs,
  PARTNER_EMAIL,
  type Rig,
  SHOP,
  startRig,
  WEBHOOK_SECRET,
} from './rig.js';
import { note, report, size } from './size.js';

/** Fixed, printed, replayable: FUZZ_SEED=… to run another. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const WEBHOOK_CASES = size(400, 60);
const ABSURD_ORDERS = size(60, 8);
const VALID_ORDERS = size(40, 4);

let rig: Rig | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  await rig?.close();
  rig = undefined;
});

type WebhookCase =
  | { kind: 'forged'; body: string; hmac: string | null }
  | { kind: 'malformed'; body: string }
  | { kind: 'oversized'; padding: number }
  | { kind: 'wrong-topic'; topic: string }
  | { kind: 'wrong-shop'; shop: string };

const webhookCase: fc.Arbitrary<WebhookCase> = fc.oneof(
  fc.record({
    kind: fc.constant('forged' as const),
    body: fc.oneof(fc.json(), fc.string()),
    hmac: fc.option(fc.oneof(fc.base64String({ maxLength: 64 }), fc.string()), { nil: null }),
  }),
  fc.record({
    kind: fc.constant('malformed' as const),
    body: fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.json({ maxDepth: 4 }),
      fc.constantFrom('', '{', 'null', '[]', '{"id":null}', '{"id":"<script>"}', '{"id":-1}'),
    ),
  }),
  fc.record({
    kind: fc.constant('oversized' as const),
    padding: fc.integer({ min: 2 * 1024 * 1024, max: 3 * 1024 * 1024 }),
  }),
  fc.record({
    kind: fc.constant('wrong-topic' as const),
    topic: fc
      .oneof(
        fc.constantFrom('products/create', 'app/uninstalled', 'ORDERS/CREATE', 'orders/created'),
        fc.string({ minLength: 1, maxLength: 80 }),
      )
      // HTTP trims a header's value: ' orders/create ' arrives as a topic the connector handles.
      .filter((topic) => !ORDER_TOPICS.includes(topic.trim())),
  }),
  fc.record({
    kind: fc.constant('wrong-shop' as const),
    shop: fc.oneof(fc.domain(), fc.constant('evil.myshopify.com')),
  }),
);

const text = (max: number) => fc.string({ unit: 'grapheme', maxLength: max });
const absurdOrder = (id: string): fc.Arbitrary<FakeOrderInput> =>
  fc.record({
    id: fc.constant(id),
    name: fc.option(
      text(300).filter((s) => s.length > 0),
      { nil: undefined },
    ),
    email: fc.option(text(400), { nil: null }),
    phone: fc.option(text(60), { nil: null }),
    note: fc.option(text(5_000), { nil: null }),
    tags: fc.array(
      text(60).filter((s) => s.trim().length > 0),
      { maxLength: 20 },
    ),
    shippingAddress: fc.option(
      fc.record({
        name: fc.option(text(500), { nil: null }),
        company: fc.option(text(500), { nil: null }),
        phone: fc.option(text(80), { nil: null }),
        address1: fc.option(text(2_000), { nil: null }),
        address2: fc.option(text(500), { nil: null }),
        city: fc.option(text(300), { nil: null }),
        zip: fc.option(text(40), { nil: null }),
        countryCode: fc.option(fc.constantFrom('DK', 'US', 'GB', 'DE', 'SE'), { nil: null }),
      }),
      { nil: null },
    ),
    lineItems: fc.array(
      fc.record({
        title: text(1_000).filter((s) => s.length > 0),
        quantity: fc.integer({ min: 1, max: 1_000_000 }),
        requiresShipping: fc.boolean(),
        sku: fc.option(text(200), { nil: null }),
        weight: fc.option(
          fc.record({
            value: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e12, noNaN: true })),
            unit: fc.constantFrom('GRAMS', 'KILOGRAMS', 'POUNDS', 'OUNCES'),
          }),
          { nil: null },
        ),
      }),
      { minLength: 1, maxLength: 60 },
    ),
  });

/** The webhook's request as the case describes it: body and headers. */
function requestOf(c: WebhookCase, orderBody: string) {
  const base = { shop: SHOP, secret: WEBHOOK_SECRET, apiVersion: '2026-10' };
  switch (c.kind) {
    case 'forged': {
      const headers = webhookHeaders({ ...base, topic: 'orders/create', body: c.body });
      if (c.hmac === null) delete headers['X-Shopify-Hmac-Sha256'];
      else headers['X-Shopify-Hmac-Sha256'] = c.hmac;
      return { body: c.body, headers };
    }
    case 'malformed':
      return {
        body: c.body,
        headers: webhookHeaders({ ...base, topic: 'orders/create', body: c.body }),
      };
    case 'oversized': {
      const body = `${orderBody.slice(0, -1)},"padding":"${'x'.repeat(c.padding)}"}`;
      return { body, headers: webhookHeaders({ ...base, topic: 'orders/create', body }) };
    }
    case 'wrong-topic':
      return {
        body: orderBody,
        headers: webhookHeaders({ ...base, topic: c.topic, body: orderBody }),
      };
    case 'wrong-shop':
      return {
        body: orderBody,
        headers: webhookHeaders({ ...base, shop: c.shop, topic: 'orders/create', body: orderBody }),
      };
  }
}

/** What the intake may answer to each kind: a clear rejection, or an acknowledgement. */
const ALLOWED: Record<WebhookCase['kind'], number[]> = {
  forged: [401],
  malformed: [200, 400],
  oversized: [413],
  'wrong-topic': [200, 401],
  'wrong-shop': [401],
};

function allowed(c: WebhookCase): number[] {
  // The signature check wants a body: an empty one is refused as unsigned, which is as clear.
  if (c.kind === 'malformed' && c.body === '') return [400, 401];
  return ALLOWED[c.kind];
}

describe('bad input', () => {
  it('fuzzed webhooks and absurd orders: clear rejections or per-order errors, no crash, valid orders unaffected', async () => {
    note(`input fuzz seed ${SEED} (FUZZ_SEED to replay)`);
    rig = await startRig({ redisUrl: REDIS_URL });
    const r = rig;
    await r.spawnWorker(0);
    const started = Date.now();

    // A real order's body, for the cases that keep the body but break something else.
    const { order: sample } = await r.store.createOrder({ id: '9100000' }, { sendWebhook: false });
    const orderBody = JSON.stringify(orderWebhookPayload(sample));
    const cases = fc.sample(webhookCase, { seed: SEED, numRuns: WEBHOOK_CASES });
    const answers: { kind: string; status: number | string; result?: string }[] = [];
    for (const c of cases) {
      const { body, headers } = requestOf(c, orderBody);
      const status = await fetch(r.intakeUrl, { method: 'POST', headers, body })
        .then(async (res) => {
          const text = await res.text();
          const result =
            res.status === 200 ? (JSON.parse(text) as { result?: string }).result : undefined;
          return { status: res.status, result };
        })
        .catch((error: Error) => ({ status: `no answer: ${error.message}`, result: undefined }));
      answers.push({ kind: c.kind, ...status });
    }
    const unexpected = answers
      .map((a, i) => ({ ...a, case: cases[i]! }))
      .filter((a) => typeof a.status !== 'number' || !allowed(a.case).includes(a.status))
      .map((a) => `${a.kind} → ${a.status}: ${JSON.stringify(a.case).slice(0, 200)}`);
    // A wrong topic acknowledged must be ignored, never queued.
    const wrongTopicQueued = answers
      .map((a, i) => ({ ...a, case: cases[i]! }))
      .filter((a) => a.kind === 'wrong-topic' && a.status === 200 && a.result !== 'ignored')
      .map((a) => `${JSON.stringify(a.case)} → ${a.result}`);

    // Absurd orders (real ones in the store) next to valid ones.
    const absurd = fc
      .sample(absurdOrder('0'), { seed: SEED, numRuns: ABSURD_ORDERS })
      .map((o, i) => ({ ...o, id: String(9_100_100 + i) }));
    const absurdIntake: Record<string, number | null> = {};
    for (const input of absurd) {
      const { order } = await r.store.createOrder(input, { sendWebhook: false });
      const delivery = await r.deliverOnce(order);
      absurdIntake[order.id] = delivery.status;
    }
    const valid = orderInputs(9_100_500, VALID_ORDERS);
    const validIds = valid.map((o) => o.id as string);
    await r.placeOrders(valid);
    await waitUntil(() => r.check(validIds).missing.length === 0, { timeoutMs: 120_000 });
    r.shipAll();
    const done = await r.waitForAll(validIds, 120_000);

    // Every absurd order: its create job settled, with a shipment or a reason.
    if (r.redis.status === 'wait') await r.redis.connect();
    const absurdIds = absurd.map((o) => o.id);
    const settled = async () => {
      const out: Record<string, { state: string; said: string }> = {};
      for (const id of absurdIds) {
        const [finishedOn, failedReason, returnvalue] = await r.redis.hmget(
          `${r.prefix}:create-shipment:order-${id}`,
          'finishedOn',
          'failedReason',
          'returnvalue',
        );
        if (!finishedOn) return undefined;
        const failed = await r.redis.zscore(`${r.prefix}:create-shipment:failed`, `order-${id}`);
        out[id] =
          failed !== null
            ? { state: 'failed', said: failedReason ?? '' }
            : { state: 'completed', said: returnvalue ?? '' };
      }
      return out;
    };
    const outcomes = await waitUntil(settled, {
      timeoutMs: 180_000,
      what: 'every absurd order to be settled',
    });
    const shipments = r.sandbox.shipments(PARTNER_EMAIL);
    const perOrder = absurdIds.map((id) => ({
      id,
      shipments: shipments.filter((s) => s.reference === id).length,
      ...outcomes[id]!,
    }));
    const unclear = perOrder.filter(
      (o) =>
        o.shipments > 1 ||
        (o.shipments === 0 && o.said.trim() === '') ||
        /TypeError|ReferenceError|Cannot read prop|undefined is not|\[object Object\]/.test(o.said),
    );
    const alive = r.workers[0]?.child.exitCode === null;
    const kinds: Record<string, Record<string, number>> = {};
    for (const a of answers) {
      kinds[a.kind] ??= {};
      kinds[a.kind]![String(a.status)] = (kinds[a.kind]![String(a.status)] ?? 0) + 1;
    }
    report('input fuzz', {
      seed: SEED,
      webhooks: kinds,
      absurdOrders: absurd.length,
      absurdIntake: Object.values(absurdIntake).reduce<Record<string, number>>((acc, s) => {
        acc[String(s)] = (acc[String(s)] ?? 0) + 1;
        return acc;
      }, {}),
      absurdOutcomes: perOrder.map(
        (o) => `${o.id}: ${o.state}, ${o.shipments} shipment(s), ${o.said.slice(0, 160)}`,
      ),
      validOrders: VALID_ORDERS,
      ...orderFigures(done),
      totalMs: Date.now() - started,
    });
    // The receivers' own data (long enough not to match by chance) stays out of logs and jobs.
    const personal: Record<string, string> = {};
    for (const o of absurd) {
      const a = o.shippingAddress;
      const values = { email: o.email, phone: o.phone, street: a?.address1, name: a?.name };
      for (const [what, value] of Object.entries(values)) {
        if (typeof value === 'string' && value.trim().length >= 8)
          personal[`${o.id} ${what}`] = value;
      }
    }
    const leaks = await r.leaks(personal);
    expect(leaks).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(wrongTopicQueued).toEqual([]);
    expect(Object.values(absurdIntake).every((s) => s === 200)).toBe(true);
    expect(unclear).toEqual([]);
    expect(alive).toBe(true);
    expect(done).toMatchObject({ duplicates: [], fulfilments: VALID_ORDERS });
    expect(done.missing).toEqual([]);
  }, 600_000);
});
