import { setTimeout as sleep } from 'node:timers/promises';
import type { PartnerSandbox } from '../sandbox/partner/index.js';
import { orderLine } from './format.js';

/**
 * Follows the sandbox's shipments until every one is delivered (or `timeoutMs` passes), printing
 * each one as it ships (with its tracking number) and as it arrives. Returns false on timeout.
 */
export async function followProvider(options: {
  sandbox: Pick<PartnerSandbox, 'shipments'>;
  nameOf: (reference: string) => string;
  print: (line: string) => void;
  signal: AbortSignal;
  timeoutMs: number;
}): Promise<boolean> {
  const reported = new Map<string, string>();
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const shipments = options.sandbox.shipments();
    for (const s of shipments) {
      if (reported.get(s.reference) === s.status) continue;
      const before = reported.get(s.reference);
      reported.set(s.reference, s.status);
      // Printed once it matters to the shop: tracking exists, or the parcel arrived.
      const text =
        s.status === 'shipped' || (s.status === 'delivered' && before !== 'shipped')
          ? `${s.orderNumber} ${s.status}, ${s.carrier} tracking ${s.trackingNumber}`
          : s.status === 'delivered'
            ? `${s.orderNumber} delivered`
            : undefined;
      if (text) options.print(orderLine(options.nameOf(s.reference), 'provider', text));
    }
    if (shipments.every((s) => s.status === 'delivered' || s.status === 'cancelled')) return true;
    if (Date.now() > deadline || options.signal.aborted) return false;
    await sleep(100);
  }
}
