import { describe, expect, it } from 'vitest';
import { ISO_COUNTRY_CODES } from '../../src/domain/country-codes.js';
import { KNOWN_STATUSES } from '../../src/partner/schemas.js';
import { COUNTRY_CODES } from '../../src/sandbox/partner/country-codes.js';
import { DOCUMENTED_STATUSES } from '../../src/sandbox/partner/statuses.js';

/** The client and the sandbox each keep their own copy of these lists; they must not drift. */
describe('lists the client and the sandbox each keep', () => {
  it('hold the same 249 officially assigned ISO 3166-1 alpha-2 codes', () => {
    expect([...ISO_COUNTRY_CODES].sort()).toEqual([...COUNTRY_CODES].sort());
    expect(ISO_COUNTRY_CODES.size).toBe(249);
    for (const code of ['DK', 'SE', 'GB', 'AX', 'SS', 'BQ']) {
      expect(COUNTRY_CODES.has(code), code).toBe(true);
    }
    // Withdrawn (AN, YU), reserved (UK, EU) and user-assigned (XK, ZZ) codes are not assigned.
    for (const code of ['AN', 'YU', 'UK', 'EU', 'XK', 'ZZ']) {
      expect(COUNTRY_CODES.has(code), code).toBe(false);
    }
  });

  it('hold the five statuses the contract documents', () => {
    const documented = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'];
    expect([...KNOWN_STATUSES]).toEqual(documented);
    expect([...DOCUMENTED_STATUSES]).toEqual(documented);
  });
});
