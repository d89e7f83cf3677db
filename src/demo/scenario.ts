import { setTimeout as sleep } from 'node:timers/promises';
import { backfillOrders } from '../compose/backfill.js';
import { orderJobId } from '../compose/parts.js';
import { describeOrder } from './describe-order.js';
import { orderLine } from './format.js';
import {
  FIXTURE_IDS,
  FULFILLMENT_SERVICE_ORDER,
  HICCUP_ORDER,
  NEW_ORDERS,
  PARTLY_FULFILLED_ORDER,
  STAFF_FULFILLED,
} from './orders.js';
import { followProvider } from './provider-progress.js';
import { AUTO_ADVANCE_MS, DEMO_SYNC_INTERVAL_MS } from './settings.js';
import type { DemoStack } from './stack.js';
import type { OrderWatcher } from './watch.js';

export interface ScenarioContext {
  stack: DemoStack;
  watcher: OrderWatcher;
  print: (line: string) => void;
  /** Ctrl-C: stop waiting and let the caller clean up. */
  signal: AbortSignal;
}

/** How the create job's log says what the shipment left out (register-shipment.ts). */
const LEFT_OUT = 'left out of the shipment: ';

/** How long one step may take before the demo gives up and says what it was waiting for. */
const STEP_TIMEOUT_MS = 30_000;

export class DemoInterrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'DemoInterrupted';
  }
}

/** The story the demo tells, step by step; the watcher prints what the connector does. */
export async function runScenario(ctx: ScenarioContext): Promise<void> {
  const { stack, print } = ctx;
  const heading = (text: string) => print(`\n${text}`);
  const webhook = { webhookUrl: stack.webhookUrl };
  const seededIds = stack.store.orders().map((o) => o.id);

  heading(
    '1. New orders arrive. For each, the store sends a signed orders/create webhook to the connector,\n' +
      '   which queues it; a worker loads the order, decides, and registers it with the provider.',
  );
  const newIds: string[] = [];
  for (const input of NEW_ORDERS) {
    const { order, webhook: delivery } = await stack.store.createOrder(input, webhook);
    newIds.push(order.id);
    print(orderLine(order.name, 'new order', describeOrder(order)));
    print(orderLine('', '', `webhook orders/create → HTTP ${delivery?.status ?? 'unreachable'}`));
  }
  await waitFor(ctx, 'the new orders to be decided and marked on Shopify', () =>
    newIds.every((id) => ctx.watcher.settled(id)),
  );

  const since = earliestDay(stack.store.orders().filter((o) => seededIds.includes(o.id)));
  heading(
    `2. Orders from before the connector ran. No webhook will come for the ${seededIds.length} seeded orders,\n` +
      `   so a backfill pass looks for them (what \`connector backfill --since ${since}\` does).`,
  );
  for (const order of stack.store.orders().filter((o) => seededIds.includes(o.id))) {
    print(orderLine(order.name, 'in store', describeOrder(order)));
  }
  const summary = await backfillOrders(
    stack.parts,
    stack.storeClient,
    new Date(`${since}T00:00:00Z`),
  );
  print(
    `   Backfill: ${summary.seen} orders seen: ${summary.queued} queued, ${summary.skipped} not eligible ` +
      `(recorded, no job), ${summary.alreadyRegistered} already registered.`,
  );
  await waitFor(ctx, 'the seeded orders to be decided and marked on Shopify', () =>
    seededIds.every((id) => ctx.watcher.settled(id)),
  );

  const unpaid = FIXTURE_IDS.unpaidRoskilde;
  const unpaidName = stack.store.order(unpaid)?.name ?? unpaid;
  heading(
    `3. Payment arrives for ${unpaidName}, skipped above as unpaid. Shopify sends orders/paid, and the\n` +
      '   connector queues the order again; now it is eligible.',
  );
  const paid = await stack.store.updateOrder(unpaid, { markPaid: true }, webhook);
  print(orderLine(unpaidName, 'paid', `webhook orders/paid → HTTP ${paid.webhook?.status}`));
  await waitFor(
    ctx,
    `${unpaidName} to be registered`,
    () => ctx.watcher.record(unpaid)?.state === 'registered' && ctx.watcher.settled(unpaid),
  );

  heading(
    '4. Failure paths, live.\n' +
      '   a) The provider answers HTTP 500 to the next create (the sandbox stores the shipment, then fails).',
  );
  stack.sandbox.failNextCreates(1);
  const hiccup = await stack.store.createOrder(HICCUP_ORDER, webhook);
  const hiccupId = hiccup.order.id;
  print(orderLine(hiccup.order.name, 'new order', describeOrder(hiccup.order)));
  await waitFor(ctx, `${hiccup.order.name} to be registered after the 500`, () =>
    ctx.watcher.settled(hiccupId),
  );
  const job = await stack.parts.queues.createShipment.getJob(orderJobId(hiccupId));
  const shipments = stack.sandbox.shipments().filter((s) => s.reference === hiccupId);
  print(
    orderLine(
      hiccup.order.name,
      'retried',
      `${job?.attemptsMade ?? '?'} attempts: the 500 was retried with backoff, and the retry sent the same\n` +
        `reference (the Shopify order id), so the provider still holds ${shipments.length} shipment for it.`,
    ),
  );

  const cancelId = newIds[0]!;
  const cancelName = stack.store.order(cancelId)?.name ?? cancelId;
  const orderNumber = ctx.watcher.record(cancelId)?.orderNumber;
  print(
    `\n   b) ${cancelName} is cancelled in Shopify after its shipment ${orderNumber} was registered.\n` +
      '      The API cannot cancel shipments, so the connector flags the order for staff instead.',
  );
  const cancelled = await stack.store.updateOrder(cancelId, { cancel: true }, webhook);
  print(
    orderLine(
      cancelName,
      'cancelled',
      `webhook orders/cancelled → HTTP ${cancelled.webhook?.status}`,
    ),
  );
  await waitFor(
    ctx,
    `${cancelName} to be flagged`,
    () =>
      Boolean(ctx.watcher.record(cancelId)?.cancelledAfterRegistrationAt) &&
      ctx.watcher.settled(cancelId),
  );

  print(
    "\n   c) Part of an order is not always the provider's to ship. Staff fulfilled 2 of 3 blankets (with their\n" +
      "   own GLS tracking) before payment arrived; another order has garden benches that another app's\n" +
      "   warehouse (a fulfillment service) ships. Only what is left at the merchant's own locations goes\n" +
      '   to the provider, and the fulfilment after shipping covers just those units.',
  );
  const partly = await stack.store.createOrder(PARTLY_FULFILLED_ORDER, webhook);
  const partlyId = partly.order.id;
  print(orderLine(partly.order.name, 'new order', describeOrder(partly.order)));
  await stack.store.fulfil(partlyId, STAFF_FULFILLED, { sendWebhook: false });
  print(orderLine(partly.order.name, 'staff', '2 × Wool blanket fulfilled by staff (GLS)'));
  await stack.store.updateOrder(partlyId, { markPaid: true }, webhook);
  const service = await stack.store.createOrder(FULFILLMENT_SERVICE_ORDER, webhook);
  const serviceId = service.order.id;
  print(orderLine(service.order.name, 'new order', describeOrder(service.order)));
  for (const [id, name] of [
    [partlyId, partly.order.name],
    [serviceId, service.order.name],
  ] as const) {
    await waitFor(
      ctx,
      `${name} to be registered`,
      () => ctx.watcher.record(id)?.state === 'registered' && ctx.watcher.settled(id),
    );
    const { logs } = await stack.parts.queues.createShipment.getJobLogs(orderJobId(id));
    const leftOut = logs.find((line) => line.startsWith(LEFT_OUT));
    print(orderLine(name, 'left out', leftOut ? leftOut.slice(LEFT_OUT.length) : 'nothing'));
  }

  heading(
    `5. Meanwhile at the provider: the sandbox moves every shipment one step every ${AUTO_ADVANCE_MS / 1000} s\n` +
      '   (pending → processing → shipped → delivered), as warehouse and carrier would. The connector\n' +
      `   reads the provider's list every ${DEMO_SYNC_INTERVAL_MS / 1000} s (the status sync) and writes each step to Shopify:\n` +
      '   its fulfillment orders in progress, the order fulfilled with its tracking, then delivered.',
  );
  const nameOf = (reference: string) => stack.store.order(reference)?.name ?? reference;
  await followProvider({
    sandbox: stack.sandbox,
    nameOf,
    print,
    signal: ctx.signal,
    timeoutMs: 30_000,
  });
  if (ctx.signal.aborted) throw new DemoInterrupted();
  // Every shipped order still open in Shopify ends fulfilled and delivered there too.
  const shippable = stack.sandbox
    .shipments()
    .map((shipment) => stack.store.order(shipment.reference))
    .filter((order) => order !== undefined && order.cancelledAt === null);
  await waitFor(ctx, 'Shopify to show every shipment delivered', () =>
    shippable.every((order) =>
      stack.store
        .order(order!.id)
        ?.fulfillments.some((f) => f.status === 'SUCCESS' && f.displayStatus === 'DELIVERED'),
    ),
  );
  // Let the watcher print the last changes before the summary.
  await sleep(500);
}

/** The day (UTC) of the oldest order, as `backfill --since` takes it. */
function earliestDay(orders: { createdAt: string }[]): string {
  const first = Math.min(...orders.map((o) => Date.parse(o.createdAt)));
  return new Date(Number.isFinite(first) ? first : Date.now()).toISOString().slice(0, 10);
}

async function waitFor(ctx: ScenarioContext, what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!done()) {
    if (ctx.signal.aborted) throw new DemoInterrupted();
    if (Date.now() > deadline) {
      throw new Error(
        `Gave up after ${STEP_TIMEOUT_MS / 1000} s waiting for ${what}. The connector's log lines above may say why.`,
      );
    }
    await sleep(100);
  }
  if (ctx.signal.aborted) throw new DemoInterrupted();
}
