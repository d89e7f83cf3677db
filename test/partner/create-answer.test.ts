import { describe, expect, it } from 'vitest';
import { creationFromHistory } from '../../src/partner/create-answer.js';

describe('creationFromHistory', () => {
  const updated_at = '2026-11-22T15:00:00+01:00';

  it('takes the earliest entry whatever order the provider lists them in', () => {
    const oldestFirst = [
      { occurred_at: '2026-11-20T09:00:00+01:00' },
      { occurred_at: '2026-11-21T12:00:00+01:00' },
    ];
    expect(creationFromHistory({ history: oldestFirst, updated_at })).toBe(
      '2026-11-20T09:00:00+01:00',
    );
    expect(creationFromHistory({ history: [...oldestFirst].reverse(), updated_at })).toBe(
      '2026-11-20T09:00:00+01:00',
    );
  });

  it('compares instants, not text: offsets and spellings differ', () => {
    const history = [
      { occurred_at: '2026-11-20T09:30:00+02:00' },
      { occurred_at: '2026-11-20T07:45:00Z' },
    ];
    expect(creationFromHistory({ history, updated_at })).toBe('2026-11-20T09:30:00+02:00');
  });

  it('falls back on updated_at when no entry has a legible time', () => {
    expect(creationFromHistory({ history: [], updated_at })).toBe(updated_at);
    expect(creationFromHistory({ history: [{ occurred_at: 'yesterday' }], updated_at })).toBe(
      updated_at,
    );
  });
});
