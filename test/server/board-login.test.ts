import { describe, expect, it } from 'vitest';
import { LoginThrottle, MAX_FAILURES, WINDOW_MS } from '../../src/server/board-login.js';

describe('wrong board logins per client', () => {
  it('lets a client try until it has MAX_FAILURES wrong ones within the window, then makes it wait', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect(throttle.fail('10.0.0.1')).toBe(i);
      now += 1_000;
    }
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
    throttle.fail('10.0.0.1');
    // Until the oldest of the ten leaves the window.
    expect(throttle.waitMs('10.0.0.1')).toBe(WINDOW_MS - (MAX_FAILURES - 1) * 1_000);
    // Other clients are not held back.
    expect(throttle.waitMs('10.0.0.2')).toBe(0);

    now = WINDOW_MS + 1;
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
  });

  it('forgets a client at its right login', () => {
    const throttle = new LoginThrottle(() => 0);
    for (let i = 0; i < MAX_FAILURES; i++) throttle.fail('10.0.0.1');
    expect(throttle.waitMs('10.0.0.1')).toBeGreaterThan(0);
    throttle.succeed('10.0.0.1');
    expect(throttle.waitMs('10.0.0.1')).toBe(0);
  });

  it('keeps a bounded number of clients, dropping the stalest', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    for (let i = 0; i < MAX_FAILURES; i++) throttle.fail('first');
    for (let i = 0; i < 10_000; i++) {
      now++;
      throttle.fail(`client-${i}`);
    }
    expect(throttle.waitMs('first')).toBe(0);
  });
});
