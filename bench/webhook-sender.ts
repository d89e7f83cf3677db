/**
 * The webhook burst's sender, a process of its own: the benchmark's process also serves the fake
 * store and the partner sandbox to the connector's workers, and a sender sharing that event loop
 * would count its own delays as the connector's answer time. Gets the deliveries and the rate from
 * the parent, sends each on its due time over keep-alive HTTP, and sends back the answer times.
 */

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export interface BurstOrder {
  url: string;
  rate: number;
  deliveries: Delivery[];
}

export interface BurstResult {
  /** Milliseconds from sending each delivery to the end of its answer, in sending order. */
  times: number[];
  /** HTTP status of each answer; 0 where no answer came. */
  statuses: number[];
  sendSeconds: number;
}

process.once('message', async (order: BurstOrder) => {
  const times: number[] = new Array(order.deliveries.length);
  const statuses: number[] = new Array(order.deliveries.length).fill(0);
  const sent: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < order.deliveries.length; i += 1) {
    const wait = started + (i * 1000) / order.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { body, headers } = order.deliveries[i]!;
    const t0 = performance.now();
    sent.push(
      fetch(`${order.url}/webhooks/shopify`, { method: 'POST', headers, body })
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
  const result: BurstResult = {
    times,
    statuses,
    sendSeconds: (performance.now() - started) / 1000,
  };
  process.send?.(result, () => process.exit(0));
});
