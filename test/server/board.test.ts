import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/catalog.js';
import { createLogger } from '../../src/log.js';
import type { AdminLogin } from '../../src/server/board.js';
import { type RunningIntake, startIntake } from '../helpers/intake.js';

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
