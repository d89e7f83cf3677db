import { Writable } from 'node:stream';
import { type Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/catalog.js';
import { createLogger } from '../../src/log.js';
import { listStaffActions } from '../../src/records/audit-trail.js';
import type { AdminLogin } from '../../src/server/board.js';
import { LoginThrottle, MAX_FAILURES, WINDOW_MS } from '../../src/server/board-login.js';
import { type RunningIntake, SHOP, startIntake, waitFor } from '../helpers/intake.js';

const LOGIN: AdminLogin = { user: 'ops', password: 'board-password-1', readOnly: false };

let intake: RunningIntake | undefined;

afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${intake!.url}${path}`, {
    ...init,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

describe('Bull Board at /admin/queues', () => {
  it('asks for the login, and refuses a wrong one, on the page and on its API', async () => {
    intake = await startIntake({ name: 'board-auth', adminLogin: LOGIN });

    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const anonymous = await call(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect((await call(path, { headers: basic('ops', 'not-the-password') })).status).toBe(401);
      expect((await call(path, { headers: basic('someone', LOGIN.password) })).status).toBe(401);
    }
    const page = await call('/admin/queues', { headers: basic(LOGIN.user, LOGIN.password) });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Shipment connector');
  });

  it('lists every queue of the job catalog', async () => {
    intake = await startIntake({ name: 'board-queues', adminLogin: LOGIN });

    const answer = await call('/admin/queues/api/queues', {
      headers: basic(LOGIN.user, LOGIN.password),
    });
    expect(answer.status).toBe(200);
    const { queues } = JSON.parse(answer.text) as { queues: { name: string }[] };
    expect(queues.map((queue) => queue.name).sort()).toEqual(JOBS.map((job) => job.queue).sort());
  });

  it('keeps the webhook and health routes open, and the webhook still reads its raw body', async () => {
    intake = await startIntake({ name: 'board-open', adminLogin: LOGIN });

    expect((await call('/healthz')).status).toBe(200);
    // Unsigned: the route itself answers (401 for the signature, not for a login).
    const webhook = await call('/webhooks/shopify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id":1}',
    });
    expect(webhook.status).toBe(401);
    expect(JSON.parse(webhook.text)).toEqual({ error: 'invalid webhook signature' });
  });

  it("parses the board's JSON bodies (the webhook's raw-body parser stays in its own scope)", async () => {
    intake = await startIntake({ name: 'board-json', adminLogin: LOGIN });

    const added = await call('/admin/queues/api/queues/mark-order/add', {
      method: 'POST',
      headers: { ...basic(LOGIN.user, LOGIN.password), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'mark-order', data: { orderId: '42' }, options: {} }),
    });
    expect(added.status).toBe(200);
    const jobs = await intake.queues.markOrder.getJobs(['waiting']);
    expect(jobs.map((job) => job.data)).toEqual([{ orderId: '42' }]);
    // In the audit trail, with the job it added.
    expect(await listStaffActions(intake.redis, intake.prefix)).toMatchObject([
      {
        who: 'ops',
        action: 'add',
        queue: 'mark-order',
        jobIds: [jobs[0]!.id],
        orderIds: ['42'],
        count: 1,
      },
    ]);
  });

  it('read-only: shows the queues but refuses a retry', async () => {
    intake = await startIntake({
      name: 'board-read-only',
      adminLogin: { ...LOGIN, readOnly: true },
    });
    const auth = basic(LOGIN.user, LOGIN.password);

    expect((await call('/admin/queues/api/queues', { headers: auth })).status).toBe(200);
    const retry = await call('/admin/queues/api/queues/create-shipment/retry/failed', {
      method: 'PUT',
      headers: auth,
    });
    expect(retry.status).toBe(405);
  });

  it('is not mounted without a login, and says so once at start with how to enable it', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    intake = await startIntake({ name: 'board-off', logger });

    expect((await call('/admin/queues')).status).toBe(404);
    const notes = lines.filter((line) => line.includes('Bull Board'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Set ADMIN_USER and ADMIN_PASSWORD');
  });
});

/** A job of the queue that failed for good, as a refused order's does. */
async function failedJob(queue: Queue, name: string, data: object, jobId: string) {
  await queue.add(name, data, { jobId });
  const worker = new Worker(
    queue.name,
    async () => {
      throw new UnrecoverableError('Order #1003 cannot be shipped as it is');
    },
    { connection: queue.opts.connection, prefix: queue.opts.prefix },
  );
  try {
    await waitFor(async () => (await queue.getJobState(jobId)) === 'failed', {
      what: `${jobId} to fail`,
    });
  } finally {
    await worker.close();
  }
}

const ORDER_ID = '5550003';
const JOB_ID = `order-${ORDER_ID}`;
const SAME_ORIGIN = () => ({ origin: intake!.url });

describe('Bull Board: staff actions in the audit trail', () => {
  it('records a retry with the login user, the time, the queue, the job and its order', async () => {
    intake = await startIntake({ name: 'board-audit-retry', adminLogin: LOGIN });
    const queue = intake.queues.createShipment;
    await failedJob(
      queue,
      '#1003 create shipment',
      { orderId: ORDER_ID, source: 'orders/paid' },
      JOB_ID,
    );

    const before = Date.now();
    const retry = await call(`/admin/queues/api/queues/create-shipment/${JOB_ID}/retry`, {
      method: 'PUT',
      headers: { ...basic(LOGIN.user, LOGIN.password), ...SAME_ORIGIN() },
    });
    expect(retry.status).toBeLessThan(300);

    const [entry, ...rest] = await listStaffActions(intake.redis, intake.prefix);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      who: 'ops',
      via: 'board',
      action: 'retry',
      queue: 'create-shipment',
      jobIds: [JOB_ID],
      orderIds: [ORDER_ID],
      count: 1,
    });
    expect(entry!.at).toBeGreaterThanOrEqual(before);
    expect(entry!.at).toBeLessThanOrEqual(Date.now());
    expect(await listStaffActions(intake.redis, intake.prefix, { orderId: ORDER_ID })).toEqual([
      entry,
    ]);
  });

  it('records a clean of every failed job with how many it removed, and nothing for a read or a refusal', async () => {
    intake = await startIntake({ name: 'board-audit-clean', adminLogin: LOGIN });
    const queue = intake.queues.markOrder;
    for (const id of ['5550004', '5550005']) {
      await failedJob(
        queue,
        `order ${id} mark registered`,
        { orderId: id, kind: 'registered' },
        `registered-${id}`,
      );
    }
    const auth = basic(LOGIN.user, LOGIN.password);
    await call('/admin/queues/api/queues', { headers: auth });
    // A job that does not exist: refused by the board, so nothing was done.
    const missing = await call('/admin/queues/api/queues/mark-order/no-such-job/retry', {
      method: 'PUT',
      headers: { ...auth, ...SAME_ORIGIN() },
    });
    expect(missing.status).toBe(404);
    expect(await listStaffActions(intake.redis, intake.prefix)).toEqual([]);

    // Bull Board cleans only jobs older than its 5 s grace: age them.
    for (const id of ['5550004', '5550005']) {
      await intake.redis.hset(queue.toKey(`registered-${id}`), 'finishedOn', Date.now() - 60_000);
      await intake.redis.zadd(queue.toKey('failed'), Date.now() - 60_000, `registered-${id}`);
    }
    const clean = await call('/admin/queues/api/queues/mark-order/clean/failed', {
      method: 'PUT',
      headers: { ...auth, ...SAME_ORIGIN() },
    });
    expect(clean.status).toBe(200);
    expect(await queue.getJobCountByTypes('failed')).toBe(0);
    const [entry] = await listStaffActions(intake.redis, intake.prefix);
    expect(entry).toMatchObject({
      who: 'ops',
      action: 'clean',
      queue: 'mark-order',
      count: 2,
      detail: 'every failed job',
    });
    expect([...entry!.orderIds].sort()).toEqual(['5550004', '5550005']);
  });
});

describe('Bull Board hardening', () => {
  it('refuses to be framed by another site, on the board and the order search', async () => {
    intake = await startIntake({ name: 'board-frames', adminLogin: LOGIN });
    for (const path of ['/admin/queues', '/admin/orders']) {
      const page = await call(path, { headers: basic(LOGIN.user, LOGIN.password) });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
    // Also on the login challenge.
    const challenge = await call('/admin/queues');
    expect(challenge.headers.get('x-frame-options')).toBe('DENY');
  });

  it("refuses a change sent from another site's page, and takes the board's own", async () => {
    intake = await startIntake({ name: 'board-origin', adminLogin: LOGIN });
    const auth = basic(LOGIN.user, LOGIN.password);
    const pause = '/admin/queues/api/queues/mark-order/pause';
    for (const headers of [
      { origin: 'https://evil.example' } as Record<string, string>,
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = await call(pause, { method: 'PUT', headers: { ...auth, ...headers } });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Bull Board refuses this change');
    }
    expect(await intake.queues.markOrder.isPaused()).toBe(false);
    expect(await listStaffActions(intake.redis, intake.prefix)).toEqual([]);

    const own = await call(pause, { method: 'PUT', headers: { ...auth, ...SAME_ORIGIN() } });
    expect(own.status).toBe(200);
    expect(await intake.queues.markOrder.isPaused()).toBe(true);
    const sameOrigin = await call('/admin/queues/api/queues/mark-order/resume', {
      method: 'PUT',
      headers: { ...auth, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
    // Behind a proxy that sends the board its own Host, the browser's host is X-Forwarded-Host.
    const proxied = await call('/admin/queues/api/queues/mark-order/pause', {
      method: 'PUT',
      headers: {
        ...auth,
        origin: 'https://admin.shop.example',
        'x-forwarded-host': 'admin.shop.example',
      },
    });
    expect(proxied.status).toBe(200);
    await intake.queues.markOrder.resume();
    expect((await listStaffActions(intake.redis, intake.prefix)).map((a) => a.action)).toEqual([
      'pause',
      'resume',
      'pause',
    ]);
  });

  it('throttles wrong logins per client and logs them without the password', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    let now = 1_000_000;
    intake = await startIntake({
      name: 'board-throttle',
      adminLogin: LOGIN,
      logger,
      loginThrottle: new LoginThrottle(() => now),
    });
    const wrong = 'not-the-password-42';
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await call('/admin/queues', { headers: basic('ops', wrong) })).status).toBe(401);
    }
    // Past the limit even the right login waits, and is told for how long.
    const throttled = await call('/admin/queues', { headers: basic(LOGIN.user, LOGIN.password) });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBe(WINDOW_MS / 1000);

    const logged = lines.filter((line) => line.includes('wrong Bull Board login'));
    expect(logged).toHaveLength(MAX_FAILURES);
    expect(JSON.parse(logged.at(-1)!)).toMatchObject({ rightUser: true, failures: MAX_FAILURES });
    expect(lines.join('')).not.toContain(wrong);

    now += WINDOW_MS;
    expect(
      (await call('/admin/queues', { headers: basic(LOGIN.user, LOGIN.password) })).status,
    ).toBe(200);
  });
});

describe('Order search next to the board', () => {
  it("lists an order's jobs across queues, by id or by name, with links to the board and Shopify", async () => {
    intake = await startIntake({
      name: 'board-search',
      adminLogin: LOGIN,
      findOrderByName: async (name) => (name === '#1003' ? { id: ORDER_ID, name: '#1003' } : null),
    });
    await intake.queues.createShipment.add(
      '#1003 create shipment',
      { orderId: ORDER_ID, source: 'orders/paid' },
      { jobId: JOB_ID },
    );
    await intake.queues.markOrder.add(
      '#1003 mark registered',
      { orderId: ORDER_ID, kind: 'registered' },
      { jobId: `registered-${ORDER_ID}` },
    );
    // Another order whose id holds this one's digits.
    await intake.queues.createShipment.add(
      'order 15550003 create shipment',
      { orderId: `1${ORDER_ID}`, source: 'orders/paid' },
      { jobId: `order-1${ORDER_ID}` },
    );
    const auth = basic(LOGIN.user, LOGIN.password);

    for (const query of ['%231003', '1003', ORDER_ID, `gid://shopify/Order/${ORDER_ID}`]) {
      const page = await call(`/admin/orders?order=${query}`, { headers: auth });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`href="/admin/queues/queue/create-shipment/${JOB_ID}"`);
      expect(page.text).toContain(`href="/admin/queues/queue/mark-order/registered-${ORDER_ID}"`);
      expect(page.text).toContain('#1003 create shipment');
      expect(page.text).toContain(`href="https://${SHOP}/admin/orders/${ORDER_ID}"`);
      expect(page.text).not.toContain(`order-1${ORDER_ID}`);
    }

    const unknown = await call('/admin/orders?order=%239999', { headers: auth });
    expect(unknown.text).toContain('The store has no order named #9999.');
    const anonymous = await call(`/admin/orders?order=${ORDER_ID}`);
    expect(anonymous.status).toBe(401);
  });

  it('says so when Shopify cannot be asked for a name, and escapes what was typed', async () => {
    intake = await startIntake({ name: 'board-search-down', adminLogin: LOGIN });
    const auth = basic(LOGIN.user, LOGIN.password);
    const down = await call('/admin/orders?order=%231003', { headers: auth });
    expect(down.text).toContain(
      'Could not ask Shopify for order #1003: no Shopify store in this test',
    );
    const odd = await call(`/admin/orders?order=${encodeURIComponent('<script>x</script>')}`, {
      headers: auth,
    });
    expect(odd.status).toBe(400);
    expect(odd.text).not.toContain('<script>x');
    expect(odd.text).toContain('&lt;script&gt;');
  });

  it('links each order job on the board to the order in the Shopify admin', async () => {
    intake = await startIntake({ name: 'board-link', adminLogin: LOGIN });
    await intake.queues.createShipment.add(
      '#1003 create shipment',
      { orderId: ORDER_ID, source: 'orders/paid' },
      { jobId: JOB_ID },
    );
    const answer = await call(
      '/admin/queues/api/queues?activeQueue=create-shipment&status=latest&page=1&jobsPerPage=10',
      { headers: basic(LOGIN.user, LOGIN.password) },
    );
    const { queues } = JSON.parse(answer.text) as {
      queues: {
        name: string;
        jobs: { id: string; name: string; externalUrl?: { href: string } }[];
      }[];
    };
    const jobs = queues.find((queue) => queue.name === 'create-shipment')?.jobs;
    expect(jobs).toEqual([
      expect.objectContaining({
        id: JOB_ID,
        name: '#1003 create shipment',
        externalUrl: {
          displayText: 'Shopify order',
          href: `https://${SHOP}/admin/orders/${ORDER_ID}`,
        },
      }),
    ]);
  });
});
