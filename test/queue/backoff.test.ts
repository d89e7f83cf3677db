import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { minimumRetrySpanMs, retryDelayMs } from '../../src/queue/backoff.js';

const settings = { firstMs: 1_000, maxMs: 8_000 };

describe('retry backoff', () => {
  it('doubles from the first delay up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, settings, () => 0));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('takes off at most 20% as jitter', () => {
    expect(retryDelayMs(3, settings, () => 1)).toBe(3_200);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(3_600);
  });

  it('keeps trying for at least 6 hours with the default settings', () => {
    const { createJob } = loadConfig({
      PARTNER_API_URL: 'http://x/api/v1',
      PARTNER_API_TOKEN: 't',
      SHOPIFY_SHOP: 'a.myshopify.com',
      SHOPIFY_ACCESS_TOKEN: 't',
      SHOPIFY_WEBHOOK_SECRET: 's',
      SENDER_NAME: 'n',
      SENDER_PHONE: 'p',
      SENDER_STREET: 's',
      SENDER_CITY: 'c',
      SENDER_POSTAL_CODE: '1',
      SENDER_COUNTRY_CODE: 'DK',
    });
    expect(minimumRetrySpanMs(createJob.attempts, createJob.backoff)).toBeGreaterThanOrEqual(
      6 * 3_600_000,
    );
  });
});
