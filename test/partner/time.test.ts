import { describe, expect, it } from 'vitest';
import { parsePartnerTimestamp, toCopenhagenIso } from '../../src/partner/time.js';

describe('toCopenhagenIso', () => {
  it('uses +01:00 in winter', () => {
    expect(toCopenhagenIso(new Date('2026-11-22T13:05:09Z'))).toBe('2026-11-22T14:05:09+01:00');
  });

  it('uses +02:00 in summer', () => {
    expect(toCopenhagenIso(new Date('2026-07-01T22:30:00.900Z'))).toBe('2026-07-02T00:30:00+02:00');
  });

  it('denotes the same instant', () => {
    const d = new Date('2026-03-29T00:59:59Z'); // a second before the spring change
    expect(Date.parse(toCopenhagenIso(d))).toBe(d.getTime());
    const after = new Date('2026-03-29T01:00:00Z');
    expect(toCopenhagenIso(after)).toBe('2026-03-29T03:00:00+02:00');
  });
});

describe('parsePartnerTimestamp', () => {
  const instant = Date.parse('2026-11-22T13:05:09Z');

  it.each([
    '2026-11-22T14:05:09+01:00',
    '2026-11-22T14:05:09+0100',
    '2026-11-22T14:05:09+01',
    '2026-11-22T13:05:09Z',
    '2026-11-22t13:05:09z',
    '20261122T140509+0100',
    '2026-11-22T14:05:09.000+01:00',
    '2026-11-22T14:05:09,0+01:00',
    '2026-11-22T08:05:09-05:00',
    '2026-11-22 14:05:09+01:00',
    // No offset: Copenhagen time, as the API writes it.
    '2026-11-22T14:05:09',
  ])('reads %s', (text) => {
    expect(parsePartnerTimestamp(text)?.getTime()).toBe(instant);
  });

  it('reads times to the minute or the hour, and fractions of a second', () => {
    expect(parsePartnerTimestamp('2026-11-22T14:05+01:00')?.toISOString()).toBe(
      '2026-11-22T13:05:00.000Z',
    );
    expect(parsePartnerTimestamp('2026-11-22T14+01:00')?.toISOString()).toBe(
      '2026-11-22T13:00:00.000Z',
    );
    expect(parsePartnerTimestamp('2026-11-22T14:05:09.1234+01:00')?.toISOString()).toBe(
      '2026-11-22T13:05:09.123Z',
    );
  });

  it('reads Copenhagen time without an offset in summer as +02:00', () => {
    expect(parsePartnerTimestamp('2026-07-02T00:30:00')?.toISOString()).toBe(
      '2026-07-01T22:30:00.000Z',
    );
  });

  it.each([
    '2026-11-22',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-11-22T25:00:00Z',
    '2026-11-22T24:00:01Z',
    '2026-11-22T14:60:00Z',
    '2026-11-22T14:05:09+24:00',
    'yesterday',
    '',
  ])('refuses %j', (text) => {
    expect(parsePartnerTimestamp(text)).toBeUndefined();
  });
});
