import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/built-connector.js';
import { startLocalApis } from '../helpers/local-service.js';
import { waitUntilTrue } from '../helpers/npm-command.js';

/**
 * `connector start` runs the queue workers in a thread of their own and the webhook intake in
 * the main thread: one process, whose orders still go through, whose /metrics adds up both
 * threads, and which stops cleanly on SIGTERM.
 */

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
});

async function startConnector() {
  const { sandbox, store, port, env } = await startLocalApis({ name: 'start-threads' });
  const child = spawn(process.execPath, [builtCli(), 'start'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let partial = '';
  child.stdout!.on('data', (chunk) => {
    const text = partial + String(chunk);
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) if (line) lines.push(JSON.parse(line));
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const logged = (message: string) => lines.filter((line) => line.msg === message);
  await waitUntilTrue(
    () => logged('listening for Shopify webhooks').length > 0 || child.exitCode !== null,
    'connector start to listen',
  );
  if (child.exitCode !== null) throw new Error(`connector start exited: ${stderr}`);
  return { sandbox, store, child, lines, logged, url: `http://127.0.0.1:${port}` };
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe('connector start: intake in the main thread, workers in their own', () => {
  it('registers an order from a webhook, serves both threads on /metrics, and stops on SIGTERM', async () => {
    const c = await startConnector();
    const { order } = await c.store.createOrder(
      { lineItems: [{ title: 'Mug', weight: { value: 400, unit: 'GRAMS' } }] },
      { webhookUrl: `${c.url}/webhooks/shopify` },
    );

    await waitUntilTrue(
      async () => (await c.store.order(order.id))?.tags.includes('shipment-registered') ?? false,
      'the order to be registered and marked',
    );
    expect(c.sandbox.shipments().map((s) => s.reference)).toEqual([order.id]);

    // The workers' lines say which thread wrote them; the intake's do not.
    expect(c.logged('listening for Shopify webhooks')[0]).not.toHaveProperty('thread');
    const starting = c.lines.filter((line) => line.msg === 'connector starting');
    expect(
      starting.map((line) => [line.http, line.workers, line.workersThread, line.thread]),
    ).toEqual(
      expect.arrayContaining([
        [true, false, true, undefined],
        [false, true, undefined, 'workers'],
      ]),
    );

    const metrics = await (await fetch(`${c.url}/metrics`)).text();
    // Sent by the workers' thread, served by the main thread.
    expect(metrics).toMatch(
      /^connector_partner_requests_total\{endpoint="[^"]+",status="201"\} 1$/m,
    );
    expect(metrics).toMatch(
      /^connector_shopify_requests_total\{operation="GetOrder",outcome="ok"\} \d+$/m,
    );
    // Read from Redis by the main thread; the process's own figures once, not once per thread.
    expect(metrics).toMatch(/^connector_shipments_registered_total 1$/m);
    expect(metrics.match(/^connector_process_cpu_seconds_total /gm)).toHaveLength(1);

    c.child.kill('SIGTERM');
    expect(await exitOf(c.child)).toBe(0);
    expect(c.logged('stopped')).toHaveLength(1);
  }, 90_000);
});
