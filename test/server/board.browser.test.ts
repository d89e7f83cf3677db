import { existsSync } from 'node:fs';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { JOBS } from '../../jobs/catalog.js';
import { buildSharedParts, type SharedParts } from '../../src/compose/parts.js';
import { freePort } from '../../src/demo/free-port.js';
import { demoEnv } from '../../src/demo/settings.js';
import { createLogger } from '../../src/log.js';
import { listStaffActions } from '../../src/records/audit-trail.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { type FakeStore, FIXTURE_ORDERS, startFakeStore } from '../../src/sandbox/store/index.js';
import { type RunningService, startService } from '../../src/service.js';
import { waitFor } from '../helpers/intake.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';

/** Debian's Chromium; a browser is never downloaded. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where a screenshot of the board with the refused order's job open is written, when set. */
const SCREENSHOT = process.env.BOARD_SCREENSHOT;

const LOGIN = { user: 'ops', password: 'board-password-1' };
const SHOP = 'board-test.myshopify.com';
const STORE_TOKEN = 'shpat_board_test';
const WEBHOOK_SECRET = 'whsec_board_test';
const REFUSED = FIXTURE_ORDERS.missingPostalCodeOdense;
const REFUSED_JOB = `order-${REFUSED.id}`;

let browser: Browser;
let sandbox: PartnerSandbox;
let store: FakeStore;
let service: RunningService;
let redis: Redis;
let parts: SharedParts;
let boardUrl: string;

/**
 * Chromium is not something npm can bring. Without it the browser tests are left out, saying so in
 * one line, so `npm install && npm test` still passes on a fresh machine; CI (`.ci/run`, which
 * installs Chromium) fails instead, so the board is never left untested there.
 */
const HAS_CHROMIUM = existsSync(CHROMIUM);
const MISSING = `${CHROMIUM} is missing: install Debian's Chromium with \`apt-get install -y chromium\``;
if (!HAS_CHROMIUM) {
  if (process.env.CI) throw new Error(MISSING);
  process.stderr.write(`Bull Board browser tests left out: ${MISSING}\n`);
}

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  const prefix = uniquePrefix('board-browser');
  sandbox = await startPartnerSandbox();
  const port = await freePort('127.0.0.1');
  store = await startFakeStore({
    shop: SHOP,
    accessToken: STORE_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `http://127.0.0.1:${port}/webhooks/shopify`,
    orders: [],
  });
  const config = loadConfig({
    ...demoEnv({
      redisUrl: REDIS_URL,
      prefix,
      port,
      partnerUrl: sandbox.url,
      partnerToken: sandbox.issueToken('demo@sandbox.local', prefix),
      storeUrl: store.url,
    }),
    SHOPIFY_SHOP: SHOP,
    SHOPIFY_ACCESS_TOKEN: STORE_TOKEN,
    SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ADMIN_USER: LOGIN.user,
    ADMIN_PASSWORD: LOGIN.password,
  });
  service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  boardUrl = `${service.url}/admin/queues`;
  redis = testRedis();
  parts = buildSharedParts({
    redis,
    prefix,
    settings: config,
    logger: createLogger({ level: 'silent' }),
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await store?.close();
  await sandbox?.close();
  if (parts) {
    await parts.close();
    await dropKeys(redis, parts.prefix);
  }
  await redis?.quit();
});

describe.skipIf(!HAS_CHROMIUM)('Bull Board in a browser', () => {
  it("notes a registered order's steps in its job's log, without personal data", async () => {
    const paid = FIXTURE_ORDERS.paidCopenhagen;
    await store.createOrder(structuredClone(paid));
    const jobId = `order-${paid.id}`;
    await waitFor(async () => (await parts.queues.createShipment.getJob(jobId))?.isCompleted(), {
      timeoutMs: 15_000,
      what: 'the paid order to be registered',
    });
    const { logs } = await parts.queues.createShipment.getJobLogs(jobId);
    expect(logs[0]).toBe(`loaded order ${paid.name}`);
    expect(logs[1]).toMatch(/^POST \/shipments → 201 \S+$/);
    expect(logs).toHaveLength(2);
    const text = logs.join('\n');
    const address = paid.shippingAddress;
    for (const personal of [paid.email, paid.phone, address.name, address.address1, address.zip]) {
      if (personal) expect(text).not.toContain(personal);
    }
  });

  it('asks for the login: 401 without credentials', async () => {
    const page = await browser.newPage();
    try {
      // The health routes stay open; from there the board and its API answer 401.
      expect((await page.goto(`${service.url}/healthz`))?.status()).toBe(200);
      const statuses = await page.evaluate(async () =>
        Promise.all(
          ['/admin/queues', '/admin/queues/api/queues'].map(async (path) => {
            // Without `omit` Chromium would wait for someone to type the login.
            const response = await fetch(path, { credentials: 'omit' });
            return [response.status, response.headers.get('www-authenticate')];
          }),
        ),
      );
      for (const [status, challenge] of statuses) {
        expect(status).toBe(401);
        expect(challenge).toMatch(/^Basic realm=/);
      }
    } finally {
      await page.close();
    }
  });

  it("lists every queue of the job catalog, shows a refused order's reason, and retries it", async () => {
    // An order without a postal code arrives by webhook and is refused at once.
    await store.createOrder(structuredClone(REFUSED));
    const job = await waitFor(
      async () => {
        const found = await parts.queues.createShipment.getJob(REFUSED_JOB);
        // Read again once failed: the job read before may predate its failure.
        return found && (await found.isFailed())
          ? parts.queues.createShipment.getJob(REFUSED_JOB)
          : undefined;
      },
      { timeoutMs: 15_000, what: 'the refused order to fail' },
    );
    expect(job?.failedReason).toContain('postal');

    const context = await browser.newContext({
      httpCredentials: { username: LOGIN.user, password: LOGIN.password },
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    try {
      const overview = await page.goto(boardUrl);

      expect(overview?.status()).toBe(200);
      for (const { queue } of JOBS) {
        await page.getByRole('link', { name: queue, exact: false }).first().waitFor();
      }

      await page.goto(`${boardUrl}/queue/create-shipment?status=failed`);
      await page.getByText(REFUSED_JOB).first().waitFor();
      // The reason in words, field by field, and nothing of where in our code it was thrown.
      const errorTab = page
        .getByRole('tabpanel')
        .filter({ hasText: /Order #1003 cannot be shipped as it is/ });
      const shown = await errorTab.innerText();
      expect(shown).toContain(
        "receiver.address.postal_code: The order's shipping address has no postal code.",
      );
      expect(shown).not.toMatch(/UnrecoverableError|failure-policy|\bat \w+ \(/);

      // The steps the job took, without personal data.
      await page.getByRole('tab', { name: 'Logs' }).click();
      await page.getByText('loaded order #1003').first().waitFor();
      await page.getByText('refused, fields: receiver.address.postal_code').first().waitFor();

      const events = new QueueEvents('create-shipment', {
        connection: { url: REDIS_URL },
        prefix: parts.prefix,
      });
      try {
        await events.waitUntilReady();
        const retried = new Promise<void>((resolve) =>
          events.on('waiting', ({ jobId, prev }) => {
            if (jobId === REFUSED_JOB && prev === 'failed') resolve();
          }),
        );
        // The job card's actions are icons named by a tooltip: the first one is Retry.
        const header = page
          .locator('div', { has: page.getByText(REFUSED_JOB) })
          .filter({ has: page.getByRole('button') })
          .last();
        const retry = header.getByRole('listitem').first().getByRole('button');
        await retry.hover();
        await page.getByText('Retry', { exact: true }).waitFor();
        const clicked = Date.now();
        await retry.click();
        await page.getByRole('button', { name: 'Confirm', exact: true }).click();
        await retried;

        // The retry is in the audit trail, with the board's user and the time. The board writes
        // it after the retry is made, so the job may be waiting before the entry exists.
        const action = await waitFor(
          async () => (await listStaffActions(redis, parts.prefix, { orderId: REFUSED.id }))[0],
          { timeoutMs: 10_000, what: 'the retry in the audit trail' },
        );
        expect(action).toMatchObject({
          who: LOGIN.user,
          via: 'board',
          action: 'retry',
          queue: 'create-shipment',
          jobIds: [REFUSED_JOB],
          count: 1,
        });
        expect(action!.at).toBeGreaterThanOrEqual(clicked);

        // Nothing changed on the order: the job says so in one line above the reason, once.
        const again = await waitFor(
          async () => {
            const found = await parts.queues.createShipment.getJob(REFUSED_JOB);
            return found?.failedReason?.startsWith('Retried unchanged') && (await found.isFailed())
              ? found
              : undefined;
          },
          { timeoutMs: 15_000, what: 'the retried order to be refused again' },
        );
        expect(again?.stacktrace).toHaveLength(1);
      } finally {
        await events.close();
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  it("finds the order's jobs by its name in one step, and links its job to the order in Shopify", async () => {
    const context = await browser.newContext({
      httpCredentials: { username: LOGIN.user, password: LOGIN.password },
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(`${service.url}/admin/orders`);
      await page.getByLabel('Order name or id').fill(REFUSED.name);
      await page.getByRole('button', { name: 'Find' }).click();
      // Found through Shopify by its name: every job of the order, each a link into the board.
      await page.getByRole('heading', { name: `Order ${REFUSED.name} (${REFUSED.id})` }).waitFor();
      const shopifyUrl = `https://${SHOP}/admin/orders/${REFUSED.id}`;
      expect(
        await page.getByRole('link', { name: 'Open in the Shopify admin' }).getAttribute('href'),
      ).toBe(shopifyUrl);
      await page.getByRole('link', { name: `${REFUSED.name} create shipment` }).click();

      await page.waitForURL(`${boardUrl}/queue/create-shipment/${REFUSED_JOB}`);
      await page.getByText(`${REFUSED.name} create shipment`).first().waitFor();
      await page
        .getByText(/Retried unchanged/)
        .first()
        .waitFor();
      const link = page.getByRole('link', { name: 'Shopify order' }).first();
      expect(await link.getAttribute('href')).toBe(shopifyUrl);
      if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await context.close();
    }
  }, 60_000);

  it("refuses a change sent from another site's page, and the board's own page still makes it", async () => {
    const context = await browser.newContext({
      httpCredentials: { username: LOGIN.user, password: LOGIN.password },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const markOrder = parts.queues.markOrder;
    try {
      // Another site (the partner sandbox's port is another origin) posts a form to the board.
      await page.goto(`${sandbox.url}/`);
      const addUrl = `${boardUrl}/api/queues/mark-order/add`;
      const answer = page.waitForResponse((response) => response.url() === addUrl);
      // Written into the sandbox's page: its origin stays the sandbox's.
      await page.setContent(
        `<form method="post" action="${addUrl}" enctype="text/plain"><input name='{"name":"forged","data":{"orderId":"1"},"options":{},"x":"' value='"}'><button>Send</button></form>`,
      );
      await page.getByRole('button', { name: 'Send' }).click();
      expect((await answer).status()).toBe(403);
      await page.getByText('Bull Board refuses this change').waitFor();

      // A PUT from there never reaches the board's routes (and would be refused if it did).
      await page.goto(`${sandbox.url}/`);
      const put = await page.evaluate(async (url) => {
        try {
          const response = await fetch(url, { method: 'PUT', credentials: 'include' });
          return response.status;
        } catch {
          return 'blocked';
        }
      }, `${boardUrl}/api/queues/mark-order/pause`);
      expect(put).not.toBe(200);
      expect(await markOrder.isPaused()).toBe(false);
      expect(await markOrder.getJobs(['waiting', 'delayed'])).toEqual([]);

      // The board's own page makes the same change.
      await page.goto(boardUrl);
      const own = await page.evaluate(async (url) => {
        const response = await fetch(url, { method: 'PUT' });
        return response.status;
      }, `${boardUrl}/api/queues/mark-order/pause`);
      expect(own).toBe(200);
      expect(await markOrder.isPaused()).toBe(true);
      await markOrder.resume();
    } finally {
      await context.close();
    }
  }, 60_000);
});
