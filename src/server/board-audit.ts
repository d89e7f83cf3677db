import type { BoardHooks, HookContext } from '@bull-board/api/typings/app';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { MAX_IDS, recordStaffAction, type StaffAction } from '../records/audit-trail.js';
import { orderIdOfJob } from './board-jobs.js';

/** Where the route's words (routeWords) do not name the action. */
const ACTIONS: Record<string, string> = {
  '/api/queues/:queueName/:jobId/clean': 'remove',
  '/api/queues/:queueName/:jobId/update-data': 'edit data',
};

const BULK_STATES: Record<string, string[]> = {
  '/api/queues/:queueName/promote': ['delayed'],
  '/api/queues/:queueName/empty': ['waiting', 'delayed', 'prioritized', 'paused'],
  '/api/queues/:queueName/obliterate': ['waiting', 'delayed', 'failed', 'completed'],
};

interface Pending {
  action: string;
  queue?: Queue;
  jobIds: string[];
  orderIds: string[];
  detail?: string;
  /** Bulk routes: how many jobs left the states the route acts on. */
  changed?: () => Promise<number>;
}

/** The user is the board's basic-auth login, checked before any route. */
export function boardAuditHooks(deps: {
  queues: readonly Queue[];
  redis: Redis;
  prefix: string;
  logger: Logger;
}): BoardHooks {
  const byName = new Map(deps.queues.map((queue) => [queue.name, queue]));
  const pending = new WeakMap<HookContext, Pending>();

  return {
    async before(context) {
      if (context.method === 'get') return;
      const params = context.request.params as Record<string, string | undefined>;
      const queue = params.queueName ? byName.get(params.queueName) : undefined;
      const note: Pending = {
        action: ACTIONS[context.route] ?? routeWords(context.route),
        ...(queue ? { queue } : {}),
        jobIds: [],
        orderIds: [],
      };
      const states = params.queueStatus ? [params.queueStatus] : BULK_STATES[context.route];
      if (queue && params.jobId) {
        noteJob(note, params.jobId, await queue.getJob(params.jobId));
      } else if (queue && states) {
        const count = () => queue.getJobCountByTypes(...(states as never[]));
        const before = await count();
        note.changed = async () =>
          note.action === 'obliterate' ? before : Math.max(0, before - (await count()));
        const jobs = (await queue.getJobs(states as never[], 0, MAX_IDS - 1)) as Job[];
        for (const job of jobs.filter(Boolean)) noteJob(note, job.id, job);
        if (params.queueStatus) note.detail = `every ${params.queueStatus} job`;
      }
      pending.set(context, note);
    },

    async after(context, result) {
      const note = pending.get(context);
      if (!note || (result.status ?? 200) >= 400) return result;
      const count = await changedCount(note, result.body, context);
      const added = (result.body as { job?: { id?: unknown; data?: unknown } } | undefined)?.job;
      if (note.action === 'add' && typeof added?.id === 'string') noteJob(note, added.id, added);
      const action: StaffAction = {
        at: Date.now(),
        who: loginUser(context.request.headers.authorization),
        via: 'board',
        action: note.action,
        ...(note.queue ? { queue: note.queue.name } : {}),
        jobIds: note.jobIds,
        orderIds: note.orderIds,
        count,
        ...(note.detail ? { detail: note.detail } : {}),
      };
      const summary = { who: action.who, action: action.action, queue: action.queue, count };
      try {
        await recordStaffAction(deps.redis, deps.prefix, action);
        deps.logger.info({ ...summary, jobIds: note.jobIds }, 'staff action on the board');
      } catch (error) {
        // The change is made: the board must say so.
        deps.logger.error(
          { err: error, ...summary },
          'staff action on the board not recorded in the audit trail',
        );
      }
      return result;
    },
  };
}

function noteJob(note: Pending, id?: string, job?: { data?: unknown } | null) {
  if (id) note.jobIds.push(id);
  const orderId = orderIdOfJob(job);
  if (orderId) note.orderIds.push(orderId);
}

async function changedCount(note: Pending, body: unknown, context: HookContext): Promise<number> {
  const params = context.request.params as Record<string, string | undefined>;
  if (params.jobId || note.action === 'add') return 1;
  const retried = (body as { retried?: unknown } | undefined)?.retried;
  if (typeof retried === 'number') return retried;
  return note.changed ? note.changed() : 0;
}

/** Already checked by the board's login. */
function loginUser(authorization: string | undefined): string {
  const encoded = authorization?.match(/^Basic\s+(\S+)$/i)?.[1] ?? '';
  return /^([^:]+):/.exec(Buffer.from(encoded, 'base64').toString('utf8'))?.[1] ?? 'unknown';
}

/** `/api/queues/:queueName/rate-limit/release` → `rate limit release`. */
function routeWords(route: string): string {
  const words = route
    .replace(/^\/api\/(queues\/)?/, '')
    .split('/')
    .filter((part) => part && !part.startsWith(':'))
    .join(' ')
    .replaceAll('-', ' ');
  return words || route;
}
