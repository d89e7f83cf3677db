/**
 * The webhook burst's sender, a process of its own: the benchmark's process also serves the fake
 * store and the partner sandbox to the connector's workers, and a sender sharing that event loop
 * would count its own delays as the connector's answer time. Gets the deliveries and the rate from
 * the parent, sends each on its due time over keep-alive HTTP, and sends back the answer times.
 * A warm-up at a quarter of the rate goes first, not counted: a connector that has been running
 * has its code compiled and its Redis scripts loaded when a burst comes.
 */

export interface WebhookDelivery {
  body: string;
  headers: Record<string, string>;
}

export interface BurstOrder {
  url: string;
  rate: number;
  warmUp: WebhookDelivery[];
  deliveries: WebhookDelivery[];
}

export interface BurstResult {
  /** Milliseconds from sending each delivery to the end of its answer, in sending order. */
  times: number[];
  /** HTTP status of each answer; 0 where no answer came. */
  statuses: number[];
  sendSeconds: number;
}

/** Sends `deliveries` at `rate` a second, each on its due time; the answer times and statuses. */
async function send(url: string, deliveries: WebhookDelivery[], rate: number) {
  const times: number[] = new Array(deliveries.length);
  const statuses: number[] = new Array(deliveries.length).fill(0);
  const sent: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < deliveries.length; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { body, headers } = deliveries[i]!;
    const t0 = performance.now();
    sent.push(
      fetch(`${url}/webhooks/shopify`, { method: 'POST', headers, body })
        .then(async (answer) => {
          await answer.text();
          statuses[i] = answer.status;
        })
        .catch(() => {})
        .finally(() => {
          times[i] = performance.now() - t0;
        }),
    );
  }
  await Promise.all(sent);
  return { times, statuses, sendSeconds: (performance.now() - started) / 1000 };
}

process.once('message', async (order: BurstOrder) => {
  await send(order.url, order.warmUp, order.rate / 4);
  const result: BurstResult = await send(order.url, order.deliveries, order.rate);
  process.send?.(result, () => process.exit(0));
});
