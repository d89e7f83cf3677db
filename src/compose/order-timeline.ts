import type { StaffAction } from '../records/audit-trail.js';
import {
  type StoredTimelineEntry,
  TIMELINE_KEEP_MS,
  TIMELINE_LIMIT,
} from '../records/order-timeline.js';

/** A job of the order as BullMQ keeps it: its times, attempts, outcome and log lines. */
export interface JobRun {
  queue: string;
  id: string;
  state: string;
  attemptsMade: number;
  /** When it was added (epoch ms). */
  addedAt: number;
  /** When its last attempt started, and when it finished (epoch ms), if it did. */
  processedAt?: number;
  finishedAt?: number;
  /** What it returned (`{ outcome }`), when it completed. */
  outcome?: string;
  failedReason?: string;
  /** Its log lines (job.log), the runs' steps, oldest first. */
  logs: string[];
}

type At = { at: string };
type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;

/** One line of an order's story, in time order; `at` is ISO (UTC). */
export type TimelineEntry =
  | (At & WithoutAt<StoredTimelineEntry>)
  | (At & { kind: 'job-queued'; queue: string; jobId: string })
  | (At & {
      kind: 'job-run';
      queue: string;
      jobId: string;
      /** completed, failed (for good), delayed (waiting to retry), active, waiting… */
      state: string;
      attempts: number;
      outcome?: string;
      reason?: string;
      logs: string[];
    })
  | (At & {
      kind: 'staff-action';
      who: string;
      via: 'board' | 'cli';
      action: string;
      queue?: string;
      count: number;
    });

/**
 * An order's story from the three places that keep it: the timeline's own entries (events,
 * provider requests and statuses, Shopify writes), its jobs in BullMQ, and the staff actions of
 * the audit trail. Oldest first; the last TIMELINE_LIMIT entries of the last TIMELINE_DAYS.
 */
export function assembleTimeline(input: {
  stored: readonly StoredTimelineEntry[];
  jobs: readonly JobRun[];
  staffActions: readonly StaffAction[];
  now?: number;
}): TimelineEntry[] {
  const since = (input.now ?? Date.now()) - TIMELINE_KEEP_MS;
  const entries: { at: number; entry: TimelineEntry }[] = [];
  const add = (at: number, entry: WithoutAt<TimelineEntry>) =>
    entries.push({ at, entry: { at: new Date(at).toISOString(), ...entry } as TimelineEntry });

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
  for (const action of input.staffActions) {
    add(action.at, {
      kind: 'staff-action',
      who: action.who,
      via: action.via,
      action: action.action,
      ...(action.queue ? { queue: action.queue } : {}),
      count: action.count,
    });
  }
  // A stable sort: entries of one instant keep the order they were added in.
  return entries
    .filter(({ at }) => at >= since)
    .sort((a, b) => a.at - b.at)
    .slice(-TIMELINE_LIMIT)
    .map(({ entry }) => entry);
}
