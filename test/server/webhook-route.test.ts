import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { HMAC_FAILURE_STREAK_ALERT } from '../../src/records/hmac-failure-streak.js';
import type { FakeOrderInput } from '../../src/sandbox/store/model.js';
import { FakeStoreState } from '../../src/sandbox/store/state.js';
import { orderWebhookPayload, signWebhook } from '../../src/sandbox/store/webhooks.js';
import {
  allJobs,
  deadPort,
  postWebhook,
  RedisOutage,
  type RunningIntake,
  startIntake,
  WEBHOOK_SECRET,
  waitFor,
} from '../helpers/intake.js';
import { holdPoint, waitUntil } from '../helpers/shipment-stack.js';
import { capturingLogger } from '../store/helpers.js';

/** An order body as Shopify sends it: name, email, phone and address included. */
function orderBody(input: FakeOrderInput & { id: string }, extra: Record<string, unknown> = {}) {
  const order = new FakeStoreState(() => new Date('2026-11-21T10:00:00Z')).createOrder(input);
  return JSON.stringify({ ...orderWebhookPayload(order), ...extra });
}

const ORDER_ID = '5551234';
const registered = {
  orderNumber: 'PS-1001',
  status: 'created',
  createdAt: '2026-11-21T10:00:00+01:00',
};

let intake: RunningIntake;

beforeEach(async () => {
  intake = await startIntake({ name: 'webhook' });
});

afterEach(async () => {
  await intake?.close();
});

/** Where the intake marks a body seen: a hash of topic and body. */
function bodyKey(intake: RunningIntake, topic: string, body: string): string {
  const hash = createHash('sha256').update(`${topic}\n`).update(body).digest('base64url');
  return `${intake.prefix}:webhook-body:${hash}`;
}

async function createJobs() {
  return allJobs(intake.queues.createShipment);
}

describe('POST /webhooks/shopify', () => {
  it('queues one create-shipment job with ids only for a signed orders/create, answering 200', async () => {
    const body = orderBody({ id: ORDER_ID, name: '#1042', email: 'mette.hansen@example.dk' });

    const answer = await postWebhook(intake.url, { topic: 'orders/create', body });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'queued' });
    const jobs = await createJobs();
    expect(jobs).toHaveLength(1);
    const job = jobs[0]!;
    expect(job.id).toBe(`order-${ORDER_ID}`);
    expect(await job.getState()).toBe('waiting');
    // BullMQ keeps payloads in clear text: the order's personal data must not be in it.
    expect(job.data).toEqual({ orderId: ORDER_ID, source: 'orders/create' });
    const stored = JSON.stringify(job.data);
    for (const personal of ['#1042', 'mette', 'Mette Hansen', '+4520123456', 'Nørrebrogade']) {
      expect(stored).not.toContain(personal);
    }
    await waitFor(async () => (await intake.counters.read()).webhooks_accepted === 1, {
      what: 'webhooks_accepted counter',
    });
  });

  it('answers 401 to a forged signature and queues nothing', async () => {
    const body = orderBody({ id: ORDER_ID });

    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body,
      headers: { 'X-Shopify-Hmac-Sha256': signWebhook('not-the-secret', body) },
    });

    expect(answer.status).toBe(401);
    expect(await createJobs()).toEqual([]);
    await waitFor(async () => (await intake.counters.read()).webhooks_rejected === 1, {
      what: 'webhooks_rejected counter',
    });
  });

  it('says to check SHOPIFY_WEBHOOK_SECRET, in /status and once in the log, after a streak of bad signatures; a verified webhook ends it', async () => {
    await intake.close();
    const { logger, lines } = capturingLogger();
    intake = await startIntake({ name: 'webhook-streak', logger });
    const status = async () =>
      (
        (await (await fetch(`${intake.url}/status`)).json()) as {
          webhooks: { failedVerificationStreak: number; problems: string[] };
        }
      ).webhooks;
    const forged = async () => {
      const body = orderBody({ id: ORDER_ID });
      const answer = await postWebhook(intake.url, {
        topic: 'orders/create',
        body,
        headers: { 'X-Shopify-Hmac-Sha256': signWebhook('an-old-secret', body) },
      });
      expect(answer.status).toBe(401);
    };

    for (let i = 1; i < HMAC_FAILURE_STREAK_ALERT; i++) await forged();
    await waitFor(
      async () => (await status()).failedVerificationStreak === HMAC_FAILURE_STREAK_ALERT - 1,
      {
        what: 'the streak to be counted',
      },
    );
    expect((await status()).problems).toEqual([]);

    await forged();
    await forged();
    const webhooks = await waitFor(
      async () => {
        const w = await status();
        return w.failedVerificationStreak === HMAC_FAILURE_STREAK_ALERT + 1 ? w : undefined;
      },
      { what: 'the streak to reach the alert' },
    );
    expect(webhooks!.problems[0]).toContain('SHOPIFY_WEBHOOK_SECRET');
    const alerts = lines()
      .split('\n')
      .filter((line) => line.includes('SHOPIFY_WEBHOOK_SECRET'));
    expect(alerts).toHaveLength(1);

    const body = orderBody({ id: ORDER_ID });
    expect((await postWebhook(intake.url, { topic: 'orders/create', body })).status).toBe(200);
    await waitFor(async () => (await status()).failedVerificationStreak === 0, {
      what: 'a verified webhook to end the streak',
    });
    expect((await status()).problems).toEqual([]);
  });

  it('answers 401 to a body changed after signing and queues nothing', async () => {
    const body = orderBody({ id: ORDER_ID });
    const signature = signWebhook(WEBHOOK_SECRET, body);

    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: body.replace(ORDER_ID, '5559999'),
      headers: { 'X-Shopify-Hmac-Sha256': signature },
    });

    expect(answer.status).toBe(401);
    expect(await createJobs()).toEqual([]);
  });

  it('answers 401 to an unsigned delivery and queues nothing', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      headers: { 'X-Shopify-Hmac-Sha256': undefined },
    });

    expect(answer.status).toBe(401);
    expect(await createJobs()).toEqual([]);
  });

  it('answers 401 to a delivery signed for another shop', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      shop: 'someone-else.myshopify.com',
    });

    expect(answer.status).toBe(401);
    expect(await createJobs()).toEqual([]);
  });

  it('answers 200 to a repeated delivery of the same event and still has one job', async () => {
    const delivery = {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      webhookId: 'wh-retry-1',
      eventId: 'ev-retry-1',
    };

    const first = await postWebhook(intake.url, delivery);
    const second = await postWebhook(intake.url, delivery);
    // Shopify may also deliver one event under a new webhook id.
    const third = await postWebhook(intake.url, { ...delivery, webhookId: 'wh-retry-2' });

    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(first.body).toEqual({ result: 'queued' });
    expect(second.body).toEqual({ result: 'duplicate' });
    expect(third.body).toEqual({ result: 'duplicate' });
    expect((await createJobs()).map((j) => j.id)).toEqual([`order-${ORDER_ID}`]);
  });

  it('keeps one job when orders/paid and orders/updated follow for a queued order', async () => {
    const body = orderBody({ id: ORDER_ID });
    await postWebhook(intake.url, { topic: 'orders/create', body });

    const paid = await postWebhook(intake.url, { topic: 'orders/paid', body });
    const updated = await postWebhook(intake.url, { topic: 'orders/updated', body });

    expect(paid).toMatchObject({ status: 200, body: { result: 'already_queued' } });
    expect(updated).toMatchObject({ status: 200, body: { result: 'already_queued' } });
    const jobs = await createJobs();
    expect(jobs.map((j) => j.id)).toEqual([`order-${ORDER_ID}`]);
    expect(jobs[0]!.data.source).toBe('orders/create');
  });

  it('queues nothing for an order whose shipment is already registered', async () => {
    await intake.records.markRegistered(ORDER_ID, registered);

    const created = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
    });
    const updated = await postWebhook(intake.url, {
      topic: 'orders/updated',
      body: orderBody({ id: ORDER_ID }),
    });

    expect(created).toMatchObject({ status: 200, body: { result: 'already_registered' } });
    expect(updated).toMatchObject({ status: 200, body: { result: 'already_registered' } });
    expect(await createJobs()).toEqual([]);
  });

  it('accepts a large order body (1.5 MB) but answers 413 above 2 MB and queues nothing', async () => {
    const big = orderBody({ id: ORDER_ID }, { note: 'x'.repeat(1.5 * 1024 * 1024) });
    const accepted = await postWebhook(intake.url, { topic: 'orders/create', body: big });
    expect(accepted).toMatchObject({ status: 200, body: { result: 'queued' } });
    await intake.queues.createShipment.obliterate({ force: true });

    const huge = orderBody({ id: '5554321' }, { note: 'x'.repeat(2 * 1024 * 1024 + 1) });
    const refused = await postWebhook(intake.url, { topic: 'orders/create', body: huge });

    expect(refused.status).toBe(413);
    expect(await createJobs()).toEqual([]);
  });

  it('answers 400 to a correctly signed body that is not JSON, and queues nothing', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: `{"id": ${ORDER_ID}, "admin_graphql_api_id": "gid://shopify/Order/${ORDER_ID}"`,
    });

    expect(answer.status).toBe(400);
    expect(await createJobs()).toEqual([]);
  });

  it('answers 400 to signed JSON that carries no order id', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: JSON.stringify({ name: '#1001' }),
    });

    expect(answer.status).toBe(400);
    expect(await createJobs()).toEqual([]);
  });

  it('acknowledges a topic it does not handle with 200 and queues nothing', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'products/update',
      body: JSON.stringify({ id: 632910392, title: 'Ceramic mug' }),
    });

    expect(answer).toMatchObject({ status: 200, body: { result: 'ignored' } });
    expect(await createJobs()).toEqual([]);
    expect(await allJobs(intake.queues.markOrder)).toEqual([]);
  });

  it('flags a registered order on orders/cancelled: one tag mark job, one count, no create job', async () => {
    await intake.records.markRegistered(ORDER_ID, registered);
    const body = orderBody({ id: ORDER_ID, cancelledAt: '2026-11-21T11:00:00Z' });

    const first = await postWebhook(intake.url, { topic: 'orders/cancelled', body });
    // A later change of the cancelled order (another event) must not flag it twice.
    const again = await postWebhook(intake.url, { topic: 'orders/updated', body });

    expect(first).toMatchObject({ status: 200, body: { result: 'flagged_cancelled' } });
    expect(again).toMatchObject({ status: 200, body: { result: 'already_flagged' } });
    expect(await createJobs()).toEqual([]);
    const markJobs = await allJobs(intake.queues.markOrder);
    expect(markJobs.map((j) => [j.id, j.data])).toEqual([
      [
        `cancelled-after-registration-${ORDER_ID}`,
        { orderId: ORDER_ID, kind: 'cancelled_after_registration' },
      ],
    ]);
    expect((await intake.counters.read()).cancelled_after_registration).toBe(1);
    expect((await intake.records.get(ORDER_ID))?.cancelledAfterRegistrationAt).toBeDefined();
  });

  it('takes the order id from admin_graphql_api_id when the numeric id exceeds 2^53', async () => {
    // JSON.parse would round this id to 9007199254740993000.
    const hugeId = '9007199254740993123';
    const body = `{"id":${hugeId},"admin_graphql_api_id":"gid://shopify/Order/${hugeId}","cancelled_at":null}`;
    expect(String(JSON.parse(body).id)).not.toBe(hugeId);

    const answer = await postWebhook(intake.url, { topic: 'orders/create', body });

    expect(answer).toMatchObject({ status: 200, body: { result: 'queued' } });
    const jobs = await createJobs();
    expect(jobs.map((j) => [j.id, j.data.orderId])).toEqual([[orderJobId(hugeId), hugeId]]);
  });

  it.each(['{"id":-1}', '{"id":0.5}', '{"id":"-7"}'])(
    'answers 400 (not 503, which Shopify retries for days) to an id no order has: %s',
    async (body) => {
      const answer = await postWebhook(intake.url, { topic: 'orders/create', body });

      expect(answer.status).toBe(400);
      expect(await createJobs()).toEqual([]);
    },
  );

  it('refuses (400) rather than guesses when only an inexact numeric id is given', async () => {
    const answer = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: '{"id":9007199254740993123}',
    });

    expect(answer.status).toBe(400);
    expect(await createJobs()).toEqual([]);
  });
});

describe('a captured body sent again under fresh ids', () => {
  it('answers 200 and queues nothing, so no job reads the order in Shopify, and logs a repeat', async () => {
    const { logger, lines } = capturingLogger('info');
    const logged = await startIntake({ name: 'webhook-replay', logger });
    try {
      await replayIsIgnored(logged, lines);
    } finally {
      await logged.close();
    }
  });

  async function replayIsIgnored(intake: RunningIntake, lines: () => string) {
    await intake.records.markRegistered(ORDER_ID, registered);
    const body = orderBody({ id: ORDER_ID });
    const checks = intake.queues.checkOrderEdit;

    const first = await postWebhook(intake.url, {
      topic: 'orders/updated',
      body,
      webhookId: 'wh-original',
      eventId: 'ev-original',
    });
    expect(first.body).toEqual({ result: 'already_registered' });
    // The edit check it asked for reads the order in Shopify; as if it had run and gone:
    expect(await allJobs(checks)).toHaveLength(1);
    await checks.obliterate({ force: true });

    const replays = await Promise.all(
      ['a', 'b', 'c'].map((n) =>
        postWebhook(intake.url, {
          topic: 'orders/updated',
          body,
          webhookId: `wh-fresh-${n}`,
          eventId: `ev-fresh-${n}`,
        }),
      ),
    );

    for (const replay of replays) {
      expect(replay).toEqual({ status: 200, body: { result: 'repeated' } });
    }
    expect(await allJobs(checks)).toEqual([]);
    expect(await allJobs(intake.queues.createShipment)).toEqual([]);
    expect(lines()).toContain(
      'webhook repeats the topic and body of an earlier delivery under another id: nothing queued',
    );
    // Nothing kept per replay: no key for the fresh ids.
    const fresh = ['a', 'b', 'c'].map((n) => `${intake.prefix}:webhook-seen:ev-fresh-${n}`);
    expect(await intake.redis.exists(...fresh)).toBe(0);
  }

  it('still takes the same body under another topic (orders/paid after orders/create)', async () => {
    const body = orderBody({ id: ORDER_ID });
    await postWebhook(intake.url, { topic: 'orders/create', body, eventId: 'ev-1' });
    await intake.queues.createShipment.obliterate({ force: true });

    const paid = await postWebhook(intake.url, { topic: 'orders/paid', body, eventId: 'ev-2' });

    expect(paid.body).toEqual({ result: 'queued' });
  });

  it('takes a body whose job could not be added as new when it comes again', async () => {
    const body = orderBody({ id: ORDER_ID });
    const queue = intake.queues.createShipment;
    const add = queue.add.bind(queue);
    queue.add = async () => {
      throw new Error('Redis went away');
    };
    const failed = await postWebhook(intake.url, { topic: 'orders/create', body, eventId: 'ev-1' });
    queue.add = add;

    const again = await postWebhook(intake.url, { topic: 'orders/create', body, eventId: 'ev-2' });

    expect(failed.status).toBe(503);
    expect(again.body).toEqual({ result: 'queued' });
  });

  it('takes a delivery marked "q" (its job still to be added) as new when no job came of it', async () => {
    // "q" marks a delivery whose job was still to be added: if the add failed (503), Shopify
    // sends it again, under the same id, or its body under another.
    const body = orderBody({ id: ORDER_ID });
    const other = orderBody({ id: '5550999' });
    await intake.redis.set(`${intake.prefix}:webhook-seen:ev-1`, 'q', 'EX', 3600);
    await intake.redis.set(bodyKey(intake, 'orders/create', other), 'q', 'EX', 3600);

    const again = await postWebhook(intake.url, { topic: 'orders/create', body, eventId: 'ev-1' });
    const sameBody = await postWebhook(intake.url, {
      topic: 'orders/create',
      body: other,
      eventId: 'ev-2',
    });

    expect([again.body, sameBody.body]).toEqual([{ result: 'queued' }, { result: 'queued' }]);
    expect((await createJobs()).map((j) => j.id).sort()).toEqual(
      [orderJobId(ORDER_ID), orderJobId('5550999')].sort(),
    );
  });

  it('refuses (400) a delivery whose id headers are longer than Shopify ever sends', async () => {
    const body = orderBody({ id: ORDER_ID });
    const long = 'x'.repeat(129);

    const byEvent = await postWebhook(intake.url, { topic: 'orders/create', body, eventId: long });
    const byWebhook = await postWebhook(intake.url, {
      topic: 'orders/create',
      body,
      webhookId: long,
    });
    const fine = await postWebhook(intake.url, {
      topic: 'orders/create',
      body,
      eventId: 'x'.repeat(128),
    });

    expect([byEvent.status, byWebhook.status]).toEqual([400, 400]);
    expect(byEvent.body.error).toMatch(/at most 128 characters/);
    expect(fine.body).toEqual({ result: 'queued' });
  });
});

describe('edit checks of a registered order', () => {
  /** Posts the body and says whether it queued an edit check. */
  async function checkQueued(topic: string, body: string): Promise<boolean> {
    const add = vi.spyOn(intake.queues.checkOrderEdit, 'add');
    try {
      const answer = await postWebhook(intake.url, { topic, body });
      expect(answer).toMatchObject({ status: 200, body: { result: 'already_registered' } });
      return add.mock.calls.length > 0;
    } finally {
      add.mockRestore();
    }
  }

  const input = {
    id: ORDER_ID,
    tags: ['vip'],
    lineItems: [
      { title: 'Mug', quantity: 2 },
      { title: 'Blanket', quantity: 1 },
    ],
  };

  it('queues none for a body that shows the receiver, lines and document tag as the last one did', async () => {
    await postWebhook(intake.url, { topic: 'orders/paid', body: orderBody(input) });
    await intake.records.markRegistered(ORDER_ID, registered);

    // The connector's own writes: a tag, a fulfilment, a later one; each a new updated_at.
    const own = [
      { tags: 'vip, shipment-registered', updated_at: '2026-11-21T10:00:05Z' },
      { fulfillment_status: 'fulfilled', updated_at: '2026-11-21T12:00:00Z' },
      { tags: 'VIP,shipment-registered ', updated_at: '2026-11-22T09:00:00Z' },
    ];
    for (const extra of own) {
      expect(await checkQueued('orders/updated', orderBody(input, extra))).toBe(false);
    }
  });

  it('queues one for a changed address, quantity or document tag, and for a body without lines', async () => {
    await intake.records.markRegistered(ORDER_ID, registered);
    const shown = JSON.parse(orderBody(input));
    const changes: Record<string, unknown>[] = [
      { shipping_address: { ...shown.shipping_address, address1: 'Nørregade 2' } },
      {
        line_items: shown.line_items.map((item: Record<string, unknown>, i: number) =>
          i === 0 ? { ...item, current_quantity: 1 } : item,
        ),
      },
      { tags: 'vip, document' },
    ];
    const at = (second: number) => `2026-11-21T11:00:${String(second).padStart(2, '0')}Z`;

    // The first body of an order registered without one is checked.
    expect(await checkQueued('orders/updated', orderBody(input))).toBe(true);
    for (const [i, change] of changes.entries()) {
      const changed = orderBody(input, { ...change, updated_at: at(2 * i) });
      expect(await checkQueued('orders/updated', changed), JSON.stringify(change)).toBe(true);
      // Back as it was: a change again.
      const back = orderBody(input, { updated_at: at(2 * i + 1) });
      expect(await checkQueued('orders/updated', back)).toBe(true);
    }
    // A body without lines shows nothing to compare: checked, and it leaves the last view as it was.
    const lineless = orderBody(input, { line_items: undefined, updated_at: at(50) });
    expect(await checkQueued('orders/updated', lineless)).toBe(true);
    expect(await checkQueued('orders/updated', orderBody(input, { updated_at: at(51) }))).toBe(
      false,
    );
  });

  it('compares the lines until the parcel is handed to the carrier, then only the receiver', async () => {
    await postWebhook(intake.url, { topic: 'orders/paid', body: orderBody(input) });
    await intake.records.markRegistered(ORDER_ID, registered);
    const shown = JSON.parse(orderBody(input));
    const fulfilled = (units: number) => ({
      line_items: shown.line_items.map((item: Record<string, unknown>, i: number) =>
        i === 0 ? { ...item, fulfillable_quantity: 2 - units } : item,
      ),
    });

    // Staff fulfil a mug before the provider has it: an edit of what was sent.
    const staff = orderBody(input, { ...fulfilled(1), updated_at: '2026-11-21T10:30:00Z' });
    expect(await checkQueued('orders/updated', staff)).toBe(true);

    const side = {
      orderNumber: 'PS-1001',
      status: 'shipped',
      updatedAt: '2026-11-21T12:00:00+01:00',
      updatedAtMs: Date.parse('2026-11-21T12:00:00+01:00'),
      stage: 'shipped',
      createdAtMs: Date.parse('2026-11-21T10:00:00+01:00'),
    };
    await intake.tracking.track(ORDER_ID, side);
    // The connector's fulfilment of the rest once the parcel is with the carrier: not checked.
    const own = orderBody(input, { ...fulfilled(2), updated_at: '2026-11-21T12:00:05Z' });
    expect(await checkQueued('orders/updated', own)).toBe(false);
    // The receiver still counts.
    const moved = orderBody(input, {
      ...fulfilled(2),
      shipping_address: { ...shown.shipping_address, zip: '8000' },
      updated_at: '2026-11-21T12:10:00Z',
    });
    expect(await checkQueued('orders/updated', moved)).toBe(true);
  });

  it('keeps no view of a body it answered 503 to, so its retry is checked', async () => {
    await postWebhook(intake.url, { topic: 'orders/paid', body: orderBody(input) });
    await intake.records.markRegistered(ORDER_ID, registered);
    const queue = intake.queues.checkOrderEdit;
    const add = queue.add.bind(queue);
    queue.add = (async () => {
      throw new Error('connection lost');
    }) as typeof queue.add;
    const edited = orderBody(input, { shipping_address: null });
    try {
      expect(
        (await postWebhook(intake.url, { topic: 'orders/updated', body: edited })).status,
      ).toBe(503);
    } finally {
      queue.add = add;
    }
    const retried = orderBody(input, {
      shipping_address: null,
      updated_at: '2026-11-21T10:00:01Z',
    });
    expect(await checkQueued('orders/updated', retried)).toBe(true);
  });
});

describe('round trips to Redis per delivery', () => {
  /**
   * Commands this process sends to Redis under the intake's prefix while `work` runs (each one a
   * round trip; not those a script runs inside Redis). Counted where ioredis sends them, so other
   * test files' traffic on the same Redis cannot disturb the count.
   */
  async function commandsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const sent = vi.spyOn(Redis.prototype, 'sendCommand');
    try {
      await work();
      return sent.mock.calls
        .map(([command]) => command)
        .filter((command) => command.args.some((arg) => String(arg).includes(intake.prefix)))
        .map((command) => command.name.toLowerCase());
    } finally {
      sent.mockRestore();
    }
  }

  it('takes four for a new order, three for a queued order, one for a duplicate', async () => {
    // Scripts loaded once beforehand: a first use on a connection sends EVAL with the script.
    const other = orderBody({ id: '5550999' });
    await postWebhook(intake.url, { topic: 'orders/create', body: other });
    await postWebhook(intake.url, { topic: 'orders/paid', body: other });
    const body = orderBody({ id: ORDER_ID });
    const delivery = { topic: 'orders/create', body, webhookId: 'wh-1', eventId: 'ev-1' };

    const added = await commandsDuring(async () => {
      expect((await postWebhook(intake.url, delivery)).body).toEqual({ result: 'queued' });
    });
    const queued = await commandsDuring(async () => {
      const paid = await postWebhook(intake.url, { topic: 'orders/paid', body, eventId: 'ev-2' });
      expect(paid.body).toEqual({ result: 'already_queued' });
    });
    const duplicate = await commandsDuring(async () => {
      expect((await postWebhook(intake.url, delivery)).body).toEqual({ result: 'duplicate' });
    });

    // Sent together, one round trip each: the delivery's marks, the view of the order's last body
    // and the order's record; the timeline note and the order's job. Not waited for: the end of an
    // HMAC failure streak (del), the delivery's marks, the body's view and the count.
    const seen = ['getex', 'mget', 'hgetall'];
    const looked = ['eval', 'hgetall'];
    const marked = ['set', 'set', 'set', 'hincrby'];
    expect(added).toEqual(['del', ...seen, ...looked, 'set', 'evalsha', ...marked]);
    expect(queued).toEqual(['del', ...seen, ...looked, 'evalsha', ...marked]);
    expect(duplicate).toEqual(['del', ...seen, 'hincrby']);
    expect((await createJobs()).map((j) => j.id).sort()).toEqual(
      [`order-${ORDER_ID}`, 'order-5550999'].sort(),
    );
    await waitFor(
      async () => {
        const counters = await intake.counters.read();
        return counters.webhooks_accepted === 4 && counters.webhooks_duplicate === 1;
      },
      { what: 'the deliveries to be counted' },
    );
  });

  it('takes a delivery whose job could not be added as new when Shopify sends it again', async () => {
    const queue = intake.queues.createShipment;
    const add = queue.add.bind(queue);
    let failures = 0;
    queue.add = (async (...args: Parameters<typeof add>) => {
      if (failures++ === 0) throw new Error('connection lost');
      return add(...args);
    }) as typeof queue.add;
    const delivery = {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      webhookId: 'wh-add',
      eventId: 'ev-add',
    };

    expect((await postWebhook(intake.url, delivery)).status).toBe(503);
    expect((await postWebhook(intake.url, delivery)).body).toEqual({ result: 'queued' });
    expect((await postWebhook(intake.url, delivery)).body).toEqual({ result: 'duplicate' });
    expect((await createJobs()).map((j) => j.id)).toEqual([`order-${ORDER_ID}`]);
  });

  it('asks a running job for one more look', async () => {
    const body = orderBody({ id: ORDER_ID });
    await postWebhook(intake.url, { topic: 'orders/create', body });
    // A worker takes the job and holds it.
    const { Worker } = await import('bullmq');
    const running = holdPoint();
    const worker = new Worker(
      intake.queues.createShipment.name,
      async () => {
        await running.stop();
      },
      { connection: intake.redis.duplicate(), prefix: intake.prefix },
    );
    try {
      await running.reached;
      const updated = await postWebhook(intake.url, { topic: 'orders/updated', body });
      expect(updated.body).toEqual({ result: 'already_queued' });
      expect(await intake.records.takeRerun(ORDER_ID)).toBe(true);
    } finally {
      running.release();
      await worker.close();
    }
  });
});

describe('POST /webhooks/shopify without Redis', () => {
  it('answers 503 at once (not after a timeout) when Redis does not answer, so Shopify retries', async () => {
    const port = await deadPort();
    // The route's own time limit lifted beyond the test's: only a fail-fast connection answers.
    const down = await startIntake({
      name: 'webhook-down',
      redisUrl: `redis://127.0.0.1:${port}`,
      waitForRedis: false,
      answerWithinMs: 600_000,
    });
    try {
      const answer = await postWebhook(down.url, {
        topic: 'orders/create',
        body: orderBody({ id: ORDER_ID }),
      });

      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'could not queue the order; retry later' });
    } finally {
      await down.close();
    }
  });

  it('queues a delivery once Redis answers, though Redis was down when the connector started', async () => {
    const outage = new RedisOutage();
    await outage.open();
    await outage.cut();
    const late = await startIntake({
      name: 'webhook-late-redis',
      redisUrl: outage.url,
      waitForRedis: false,
    });
    const delivery = {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      webhookId: 'wh-late',
      eventId: 'ev-late',
    };
    try {
      expect((await postWebhook(late.url, delivery)).status).toBe(503);

      await outage.open();
      // Shopify delivers again, minutes apart; the queues must have come back by themselves.
      const retried = await waitUntil(
        async () => {
          const answer = await postWebhook(late.url, delivery);
          return answer.status === 200 ? answer : undefined;
        },
        { timeoutMs: 10_000, what: 'a retried delivery to be taken' },
      );
      expect(retried.body).toEqual({ result: 'queued' });
      expect((await allJobs(late.queues.createShipment)).map((j) => j.id)).toEqual([
        `order-${ORDER_ID}`,
      ]);
    } finally {
      await late.close();
      await outage.cut();
    }
  });

  it('answers 503 while Redis is cut off and queues the same delivery when Shopify retries after', async () => {
    const outage = new RedisOutage();
    await outage.open();
    // The route's own time limit lifted beyond the test's: only a fail-fast connection answers.
    const flaky = await startIntake({
      name: 'webhook-outage',
      redisUrl: outage.url,
      answerWithinMs: 600_000,
    });
    const delivery = {
      topic: 'orders/create',
      body: orderBody({ id: ORDER_ID }),
      webhookId: 'wh-outage',
      eventId: 'ev-outage',
    };
    try {
      await outage.cut();
      await waitFor(() => flaky.redis.status !== 'ready', { what: 'the connection to drop' });

      const during = await postWebhook(flaky.url, delivery);
      expect(during.status).toBe(503);

      await outage.open();
      // Shopify delivers again until it gets 200 (over hours; here until both connections are back).
      const retried = await waitUntil(
        async () => {
          const answer = await postWebhook(flaky.url, delivery);
          return answer.status === 200 ? answer : undefined;
        },
        { timeoutMs: 10_000, what: 'a retried delivery to be taken' },
      );
      // The refused delivery was not remembered as seen: the retry is queued, not "duplicate".
      expect(retried.body).toEqual({ result: 'queued' });
      expect((await allJobs(flaky.queues.createShipment)).map((j) => j.id)).toEqual([
        `order-${ORDER_ID}`,
      ]);
    } finally {
      await flaky.close();
      await outage.cut();
    }
  });
});
