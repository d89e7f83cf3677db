import type { StaffAction } from '../records/audit-trail.js';
import {
  type StoredTimelineEntry,
  TIMELINE_KEEP_MS,
  TIMELINE_LIMIT,
} from '../records/order-timeline.js';

export interface JobRun {
  queue: string;
  id: string;
  state: string;
  attemptsMade: number;
  /** Epoch ms, as are the other times. */
  addedAt: number;
  processedAt?: number;
  finishedAt?: number;
  /** What it returned (`{ outcome }`). */
  outcome?: string;
  failedReason?: string;
  /** job.log, oldest first. */
  logs: string[];
}

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;

/** `at` is ISO (UTC). */
export type TimelineEntry = { at: string } & (
  | WithoutAt<StoredTimelineEntry>
  | { kind: 'job-queued'; queue: string; jobId: string }
  | {
      kind: 'job-run';
      queue: string;
      jobId: string;
      state: string;
      attempts: number;
      outcome?: string;
      reason?: string;
      logs: string[];
    }
  | ({ kind: 'staff-action' } & Pick<StaffAction, 'who' | 'via' | 'action' | 'queue' | 'count'>)
);

/** From the timeline's own entries, BullMQ's jobs and the audit trail; oldest first. */
export function assembleTimeline(input: {
  stored: readonly StoredTimelineEntry[];
  jobs: readonly JobRun[];
  staffActions: readonly StaffAction[];
  now?: number;
}): TimelineEntry[] {
  const since = (input.now ?? Date.now()) - TIMELINE_KEEP_MS;
  const entries: { at: number; entry: TimelineEntry }[] = [];
  const add = (at: number, entry: WithoutAt<TimelineEntry>) =>
    entries.push({ at, entry: { at: new Date(at).toISOString(), ...entry } });

  for (const { at, ...rest } of input.stored) add(at, rest);
  for (const job of input.jobs) {
    add(job.addedAt, { kind: 'job-queued', queue: job.queue, jobId: job.id });
    const ranAt = job.finishedAt ?? job.processedAt;
    if (ranAt === undefined) continue;
    add(ranAt, {
      kind: 'job-run',
      queue: job.queue,
      jobId: job.id,
      state: job.state,
      attempts: job.attemptsMade,
      ...(job.outcome ? { outcome: job.outcome } : {}),
      ...(job.failedReason ? { reason: job.failedReason } : {}),
      logs: job.logs,
    });
  }
  for (const { at, who, via, action, queue, count } of input.staffActions) {
    add(at, { kind: 'staff-action', who, via, action, ...(queue ? { queue } : {}), count });
  }
  // Stable: entries of one instant keep the order they were added in.
  return entries
    .filter(({ at }) => at >= since)
    .sort((a, b) => a.at - b.at)
    .slice(-TIMELINE_LIMIT)
    .map(({ entry }) => entry);
}
