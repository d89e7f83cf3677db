import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adminSurfaceProblems,
  ConfigError,
  loadConfig,
  loadDotEnv,
  variableNames,
} from '../../config/index.js';
import { jobConcurrency } from '../../src/compose/workers.js';

const minimal = {
  PARTNER_API_URL: 'https://partner.example.com/api/v1/',
  PARTNER_API_TOKEN: 'tok',
  SHOPIFY_SHOP: 'demo.myshopify.com',
  SHOPIFY_ACCESS_TOKEN: 'shpat_x',
  SHOPIFY_WEBHOOK_SECRET: 'whsec',
  SENDER_NAME: 'Warehouse',
  SENDER_PHONE: '+4511111111',
  SENDER_STREET: 'Lagervej 1',
  SENDER_CITY: 'Kolding',
  SENDER_POSTAL_CODE: '6000',
  SENDER_COUNTRY_CODE: 'dk',
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the admin surface: /metrics, /status and Bull Board', () => {
  it('gets a listener of its own with ADMIN_PORT, on loopback unless ADMIN_HOST says otherwise', () => {
    expect(loadConfig(minimal).adminListener).toBeUndefined();
    expect(loadConfig({ ...minimal, ADMIN_PORT: '3001' }).adminListener).toEqual({
      port: 3001,
      host: '127.0.0.1',
    });
    expect(
      loadConfig({ ...minimal, ADMIN_PORT: '3001', ADMIN_HOST: '0.0.0.0' }).adminListener,
    ).toEqual({ port: 3001, host: '0.0.0.0' });
    expect(problemsOf({ ...minimal, ADMIN_HOST: '0.0.0.0' })).toEqual([
      'ADMIN_HOST needs ADMIN_PORT: the admin listener opens only on a port of its own',
    ]);
    expect(problemsOf({ ...minimal, PORT: '3000', ADMIN_PORT: '3000' })[0]).toMatch(
      /^ADMIN_PORT must differ from PORT \(3000\)/,
    );
  });

  it('may share a webhook port bound beyond loopback only behind METRICS_TOKEN', () => {
    const shared = loadConfig({ ...minimal, HOST: '0.0.0.0' });
    const [problem] = adminSurfaceProblems(shared);
    expect(problem).toMatch(/^HOST 0\.0\.0\.0 opens \/metrics and \/status to anyone/);
    for (const remedy of ['ADMIN_PORT', 'METRICS_TOKEN', 'HOST to 127.0.0.1']) {
      expect(problem).toContain(remedy);
    }
    // The default HOST is 0.0.0.0: a bare configuration needs one of the three.
    expect(adminSurfaceProblems(loadConfig(minimal))).toHaveLength(1);

    const fine = [
      { HOST: '127.0.0.1' },
      { HOST: '::1' },
      { HOST: 'localhost' },
      { HOST: '0.0.0.0', METRICS_TOKEN: 'a-token-of-16-chars-or-more' },
      { HOST: '0.0.0.0', ADMIN_PORT: '3001' },
    ];
    for (const env of fine)
      expect(adminSurfaceProblems(loadConfig({ ...minimal, ...env }))).toEqual([]);
  });
});

describe('loadConfig', () => {
  it('opens Bull Board only with both admin settings, read-only on request', () => {
    expect(loadConfig(minimal).admin).toBeUndefined();
    expect(
      loadConfig({
        ...minimal,
        ADMIN_USER: 'ops',
        ADMIN_PASSWORD: 'a-long-password',
        ADMIN_READ_ONLY: 'true',
      }).admin,
    ).toEqual({ user: 'ops', password: 'a-long-password', readOnly: true });
    expect(problemsOf({ ...minimal, ADMIN_USER: 'ops' })).toEqual([
      'ADMIN_USER and ADMIN_PASSWORD go together: set both to open Bull Board at /admin/queues, or neither',
    ]);
    expect(problemsOf({ ...minimal, ADMIN_USER: 'ops', ADMIN_PASSWORD: 'short' })[0]).toMatch(
      /^ADMIN_PASSWORD is invalid \(must be at least 12 characters\)/,
    );
  });

  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      queuePrefix: 'connector',
      allowEviction: false,
    });
    expect(config.partner.rateLimit).toBe(60);
    expect(config.partner.rateWindowMs).toBe(60_000);
    expect(config.partner.apiUrl).toBe('https://partner.example.com/api/v1');
    expect(config.shopify.apiVersion).toBe('2026-10');
    expect(config.intake.pollIntervalMs).toBe(300_000);
    expect(config.eligibility.financialStatuses).toEqual(['paid']);
    expect(config.shipment.sender.countryCode).toBe('DK');
    expect(config.shipment.sendReceiverEmail).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('lists every problem at once, each with how to fix it', () => {
    const problems = problemsOf({ PARTNER_RATE_LIMIT: 'lots', SENDER_COUNTRY_CODE: 'Denmark' });
    const names = problems.map((p) => p.split(' ')[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'PARTNER_API_URL',
        'PARTNER_API_TOKEN',
        'PARTNER_RATE_LIMIT',
        'SHOPIFY_SHOP',
        'SENDER_NAME',
        'SENDER_COUNTRY_CODE',
        'SHOPIFY_ACCESS_TOKEN',
        'SHOPIFY_WEBHOOK_SECRET',
      ]),
    );
    expect(problems.find((p) => p.startsWith('PARTNER_RATE_LIMIT'))).toContain('must be a number');
    expect(problems.find((p) => p.startsWith('PARTNER_API_TOKEN'))).toContain('connector token');
  });

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({})).toThrowError(/PARTNER_API_TOKEN is required[\s\S]*SENDER_CITY/);
  });

  it('treats an empty value as unset', () => {
    expect(problemsOf({ ...minimal, PARTNER_API_TOKEN: '' })[0]).toMatch(
      /^PARTNER_API_TOKEN is required/,
    );
  });

  it('takes how many creates, marks and sync writes run at a time, with defaults', () => {
    expect(loadConfig(minimal).concurrency).toEqual({ create: 16, mark: 8, syncWrite: 4 });
    const set = loadConfig({
      ...minimal,
      CREATE_CONCURRENCY: '64',
      MARK_CONCURRENCY: '32',
      SYNC_WRITE_CONCURRENCY: '2',
    });
    expect(set.concurrency).toEqual({ create: 64, mark: 32, syncWrite: 2 });
    expect(jobConcurrency(set.concurrency)).toEqual({
      createShipment: 64,
      markOrder: 32,
      writeShipmentStatus: 2,
      reportShipmentProgress: 2,
      fulfilShipment: 2,
      recordDelivery: 2,
    });
    expect(problemsOf({ ...minimal, CREATE_CONCURRENCY: '0' })[0]).toMatch(/^CREATE_CONCURRENCY/);
    expect(problemsOf({ ...minimal, MARK_CONCURRENCY: '1.5' })[0]).toMatch(/^MARK_CONCURRENCY/);
  });

  it('rejects values out of range', () => {
    expect(problemsOf({ ...minimal, PORT: '70000' })[0]).toMatch(/^PORT is invalid/);
    expect(problemsOf({ ...minimal, REDIS_URL: 'localhost:6379' })[0]).toMatch(/^REDIS_URL/);
    expect(problemsOf({ ...minimal, SHOPIFY_SHOP: 'https://demo.com' })[0]).toMatch(
      /^SHOPIFY_SHOP/,
    );
    expect(problemsOf({ ...minimal, SKIP_TEST_ORDERS: 'maybe' })[0]).toMatch(/^SKIP_TEST_ORDERS/);
    expect(problemsOf({ ...minimal, DEFAULT_WIDTH_CM: '51' })[0]).toMatch(/^DEFAULT_WIDTH_CM/);
  });

  it('accepts client credentials instead of an access token, signing webhooks with the secret', () => {
    const { SHOPIFY_ACCESS_TOKEN: _t, SHOPIFY_WEBHOOK_SECRET: _w, ...rest } = minimal;
    const config = loadConfig({ ...rest, SHOPIFY_CLIENT_ID: 'id', SHOPIFY_CLIENT_SECRET: 'sec' });
    expect(config.shopify.auth).toEqual({
      kind: 'clientCredentials',
      clientId: 'id',
      clientSecret: 'sec',
    });
    expect(config.shopify.webhookSecret).toBe('sec');
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({
      ...minimal,
      ELIGIBLE_FINANCIAL_STATUSES: 'PAID, partially_refunded',
      EXCLUDE_TAGS: 'no-ship, ,wholesale',
      SEND_RECEIVER_EMAIL: 'true',
    });
    expect(config.eligibility.financialStatuses).toEqual(['paid', 'partially_refunded']);
    expect(config.eligibility.excludeTags).toEqual(['no-ship', 'wholesale']);
    expect(config.shipment.sendReceiverEmail).toBe(true);
  });

  it('returns a frozen object', () => {
    const config = loadConfig(minimal);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.partner)).toBe(true);
    expect(() => {
      (config.partner as { token: string }).token = 'x';
    }).toThrow();
  });

  it('is documented variable by variable in .env.example', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const documented = [...example.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...variableNames].sort());
  });
});

describe('loadDotEnv', () => {
  it('fills in unset variables from the file and never overrides the environment', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dotenv-')), '.env');
    writeFileSync(path, 'CONNECTOR_TEST_A=from-file\nCONNECTOR_TEST_B=from-file # note\n');
    process.env.CONNECTOR_TEST_A = 'from-env';
    try {
      expect(loadDotEnv(path)).toBe(true);
      expect(process.env.CONNECTOR_TEST_A).toBe('from-env');
      expect(process.env.CONNECTOR_TEST_B).toBe('from-file');
    } finally {
      delete process.env.CONNECTOR_TEST_A;
      delete process.env.CONNECTOR_TEST_B;
    }
  });

  it('does nothing without a file', () => {
    expect(loadDotEnv(join(tmpdir(), 'no-such-dir', '.env'))).toBe(false);
  });
});

describe('Redis Cluster settings', () => {
  it('takes a cluster URL with a hash-tagged prefix, and TLS URLs', () => {
    const cluster = { REDIS_URL: 'rediss+cluster://a:6379,b:6379', QUEUE_PREFIX: '{connector}' };
    expect(loadConfig({ ...minimal, ...cluster }).redis).toEqual({
      url: cluster.REDIS_URL,
      queuePrefix: '{connector}',
      allowEviction: false,
    });
    expect(loadConfig({ ...minimal, REDIS_URL: 'rediss://h:6380' }).redis.queuePrefix).toBe(
      'connector',
    );
  });

  it('refuses a cluster with a prefix that is no hash tag, and says how to write it', () => {
    expect(problemsOf({ ...minimal, REDIS_URL: 'redis+cluster://a:6379' })).toEqual([
      expect.stringMatching(/^QUEUE_PREFIX: .*wrapped in braces.*\{connector\}/),
    ]);
    expect(problemsOf({ ...minimal, QUEUE_PREFIX: '{half' })[0]).toMatch(/^QUEUE_PREFIX/);
  });
});
