import { describe, expect, it } from 'vitest';
import {
  furthestStage,
  isFinalStatus,
  stageOf,
  supersedes,
} from '../../src/domain/shipment-progress.js';

const at = (
  status: string,
  updatedAtMs: number,
  stage = stageOf(status) === undefined ? 'pending' : status,
) => ({
  status,
  updatedAtMs,
  stage,
});

describe('supersedes', () => {
  it('takes the first report of a shipment', () => {
    expect(supersedes(at('pending', 1), undefined)).toBe(true);
  });

  it('takes a newer report that moves forward', () => {
    expect(supersedes(at('shipped', 2), at('processing', 1))).toBe(true);
  });

  it('refuses an older report, whatever its status', () => {
    expect(supersedes(at('delivered', 1), at('shipped', 2))).toBe(false);
    expect(supersedes(at('processing', 1), at('shipped', 2))).toBe(false);
  });

  it('refuses a documented status that moves back, even with a newer time', () => {
    expect(supersedes(at('shipped', 3), at('delivered', 2))).toBe(false);
    expect(supersedes(at('pending', 3), at('processing', 2))).toBe(false);
  });

  it('never leaves a final status', () => {
    expect(supersedes(at('held_at_customs', 5), at('delivered', 2))).toBe(false);
    expect(supersedes(at('processing', 5), at('cancelled', 2))).toBe(false);
  });

  it('refuses a documented status behind the stage reached before an undocumented one', () => {
    expect(supersedes(at('processing', 4), at('held_at_customs', 3, 'shipped'))).toBe(false);
    expect(supersedes(at('shipped', 4), at('held_at_customs', 3, 'shipped'))).toBe(true);
  });

  it('takes a newer undocumented status, and a documented one after it', () => {
    expect(supersedes(at('held_at_customs', 3), at('shipped', 2))).toBe(true);
    expect(supersedes(at('delivered', 4), at('held_at_customs', 3))).toBe(true);
  });

  it('takes a repeated status only when it is newer', () => {
    expect(supersedes(at('shipped', 2), at('shipped', 2))).toBe(false);
    expect(supersedes(at('shipped', 3), at('shipped', 2))).toBe(true);
  });

  it('at the same instant, takes only a step forward', () => {
    expect(supersedes(at('shipped', 2), at('processing', 2))).toBe(true);
    expect(supersedes(at('processing', 2), at('shipped', 2))).toBe(false);
    expect(supersedes(at('held_at_customs', 2), at('shipped', 2))).toBe(false);
  });
});

describe('stages', () => {
  it('orders the documented statuses and leaves others out', () => {
    expect(['pending', 'processing', 'shipped', 'delivered'].map(stageOf)).toEqual([0, 1, 2, 3]);
    expect(stageOf('held_at_customs')).toBeUndefined();
    expect(isFinalStatus('cancelled')).toBe(true);
    expect(isFinalStatus('shipped')).toBe(false);
  });

  it('keeps the furthest documented stage; an unknown status keeps the stage where it was', () => {
    expect(furthestStage(undefined, 'held_at_customs')).toBe('pending');
    expect(furthestStage('shipped', 'held_at_customs')).toBe('shipped');
    expect(furthestStage('shipped', 'delivered')).toBe('delivered');
    expect(furthestStage('delivered', 'shipped')).toBe('delivered');
  });
});
