import { describe, expect, it } from 'vitest';
import { toCopenhagenIso } from '../../src/partner/time.js';

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
