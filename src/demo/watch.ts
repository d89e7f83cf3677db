import { METAFIELD_KEYS, ORDER_TAGS } from '../domain/order-marks.js';
import type { OrderRecord, OrderRecords } from '../records/order-records.js';
import type { FakeStore } from '../sandbox/store/index.js';
import { orderLine, outcomeLabel } from './format.js';
import { describeChanges, type Marks, marksOf, NO_MARKS } from './marks.js';

export interface WatcherDeps {
  store: Pick<FakeStore, 'orders'>;
  records: Pick<OrderRecords, 'get'>;
  print: (line: string) => void;
}

const recordKey = (r: OrderRecord | null) =>
  r ? [r.state, r.orderNumber, r.reason, r.cancelledAfterRegistrationAt].join('|') : '';

/**
 * Narrates what the connector does, by looking where its work lands: the order records it keeps
 * in Redis, and the tags, metafields and notes it writes on the fake store's orders. It watches
 * results rather than hooking into the service, so the demo shows the real thing, unchanged.
 */
export class OrderWatcher {
  private readonly records = new Map<string, OrderRecord | null>();
  private readonly printedRecords = new Map<string, string>();
  private readonly seenMarks = new Map<string, Marks>();
  private readonly printedMarks = new Map<string, Marks>();
  private timer: NodeJS.Timeout | undefined;
  private tickRunning: Promise<void> | undefined;

  constructor(private readonly deps: WatcherDeps) {}

  /** The store as it is now is the starting point: only what changes afterwards is reported. */
  baseline(): void {
    for (const order of this.deps.store.orders()) {
      this.printedMarks.set(order.id, marksOf(order));
      this.seenMarks.set(order.id, marksOf(order));
    }
  }

  start(intervalMs = 200): void {
    const loop = () => {
      this.tickRunning = this.tick()
        .catch((error: unknown) => this.deps.print(`   (watcher: ${String(error)})`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, intervalMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.tickRunning;
  }

  async tick(): Promise<void> {
    for (const order of this.deps.store.orders()) {
      const record = await this.deps.records.get(order.id);
      this.records.set(order.id, record);
      this.reportRecord(order.name, order.id, record);
      this.reportMarks(order.name, order.id, marksOf(order), record);
    }
  }

  record(orderId: string): OrderRecord | null {
    return this.records.get(orderId) ?? null;
  }

  /**
   * True once the connector is done with the order for now and all of it was printed: a
   * decision is recorded and, for registered and refused orders, marked on Shopify.
   */
  settled(orderId: string): boolean {
    const record = this.records.get(orderId);
    const marks = this.printedMarks.get(orderId);
    const seen = this.seenMarks.get(orderId);
    if (!record || !marks || !seen || !sameMarks(seen, marks)) return false;
    if (this.printedRecords.get(orderId) !== recordKey(record)) return false;
    switch (record.state) {
      case 'skipped':
        return true;
      case 'failed':
        return marks.tags.includes(ORDER_TAGS.error) && Boolean(marks.metafields.error);
      case 'registered':
        return (
          marks.tags.includes(ORDER_TAGS.registered) &&
          marks.metafields[METAFIELD_KEYS.orderNumber] === record.orderNumber &&
          (!record.cancelledAfterRegistrationAt || marks.tags.includes(ORDER_TAGS.cancelAtProvider))
        );
      default:
        // Any other state is work in progress.
        return false;
    }
  }

  private reportRecord(name: string, orderId: string, record: OrderRecord | null): void {
    const key = recordKey(record);
    const before = this.printedRecords.get(orderId) ?? '';
    if (!record || key === before) return;
    this.printedRecords.set(orderId, key);
    const [previousState, , , previousCancelledAt] = before.split('|');
    const print = (label: string, text: string) => this.deps.print(orderLine(name, label, text));

    if (record.state === 'registered') {
      if (previousState !== 'registered') {
        print(
          'registered',
          `provider order number ${record.orderNumber} (status ${record.partnerStatus ?? 'pending'})`,
        );
      }
      if (record.cancelledAfterRegistrationAt && !previousCancelledAt) {
        print(
          'flagged',
          `cancelled in Shopify after ${record.orderNumber} was registered: staff must ask the provider to cancel it`,
        );
      }
    } else if (record.state === 'failed') {
      print(outcomeLabel(record), record.reason ?? '(no reason recorded)');
    } else if (record.state === 'skipped') {
      print('skipped', record.reason ?? record.skipCode ?? '(no reason recorded)');
    }
  }

  /** Prints an order's marks once they have stopped changing, so its parts come out together. */
  private reportMarks(name: string, orderId: string, marks: Marks, record: OrderRecord | null) {
    const seen = this.seenMarks.get(orderId);
    const stable = seen !== undefined && sameMarks(seen, marks);
    if (!stable) {
      this.seenMarks.set(orderId, marks);
      return;
    }
    const printed = this.printedMarks.get(orderId) ?? NO_MARKS;
    if (sameMarks(printed, marks)) {
      this.printedMarks.set(orderId, seen);
      return;
    }
    const changes = describeChanges(printed, marks, record?.reason);
    this.printedMarks.set(orderId, seen);
    if (changes.length > 0) this.deps.print(orderLine(name, '→ Shopify', changes.join('\n')));
  }
}

function sameMarks(a: Marks, b: Marks): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
