import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShipmentRequest } from '../../src/domain/shipment-contract.js';
import { PartnerBudget } from '../../src/partner/budget.js';
import { PartnerClient } from '../../src/partner/client.js';
import type { RequestGate, RequestPriority } from '../../src/partner/gate.js';
import { runPartnerStep } from '../../src/queue/failure-policy.js';
import { auditRequests } from '../../src/sandbox/partner/audit.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { validShipment } from '../sandbox/helpers.js';

const TOKEN = 'sbx_demo_token';

/** What the processes' gates decided, on one clock: the test runs both "processes". */
interface GateLog {
  grants: number[];
  blocks: { at: number; waitMs: number }[];
}

class RecordingGate implements RequestGate {
  constructor(
    private readonly inner: RequestGate,
    private readonly log: GateLog,
  ) {}
  // A grant is stamped when it was asked for and a block when it took effect, so a take that
  // raced the block (asked before it landed) is not mistaken for one that ignored it.
  async take(priority: RequestPriority) {
    const askedAt = Date.now();
    const decision = await this.inner.take(priority);
    if (decision.granted) this.log.grants.push(askedAt);
    return decision;
  }
  async block(waitMs: number) {
    await this.inner.block(waitMs);
    this.log.blocks.push({ at: Date.now(), waitMs });
  }
}

interface Stack {
  gateLog: GateLog;
  sandbox: PartnerSandbox;
  queues: { create: Queue; sync: Queue };
  workers: Worker[];
  connections: Redis[];
  prefix: string;
}

let stack: Stack | undefined;

afterEach(async () => {
  if (!stack) return;
  await Promise.all(stack.workers.map((w) => w.close()));
  await Promise.all([
    stack.queues.create.obliterate({ force: true }),
    stack.queues.sync.obliterate({ force: true }),
  ]);
  await Promise.all([stack.queues.create.close(), stack.queues.sync.close()]);
  await dropKeys(stack.connections[0]!, stack.prefix);
  await Promise.all(stack.connections.map((c) => c.quit()));
  await stack.sandbox.close();
  stack = undefined;
});

/**
 * Two "processes": each has its own Redis connection, budget object, partner client and a worker
 * on each of two queues, as two `connector start` processes would. They share only Redis.
 */
async function startStack(options: {
  sandboxLimit: number;
  budgetLimit: number;
  windowMs: number;
}): Promise<Stack> {
  const prefix = uniquePrefix('budget-workers');
  const sandbox = await startPartnerSandbox({
    rateLimit: options.sandboxLimit,
    rateWindowMs: options.windowMs,
  });
  const connections = [testRedis(), testRedis(), testRedis()];
  const queueConnection = connections[0]!;
  const queues = {
    create: new Queue('create-shipment', { connection: queueConnection, prefix }),
    sync: new Queue('sync-status', { connection: queueConnection, prefix }),
  };
  const workers: Worker[] = [];
  const gateLog: GateLog = { grants: [], blocks: [] };
  for (const connection of connections.slice(1)) {
    const budget = new PartnerBudget(connection, {
      token: TOKEN,
      limit: options.budgetLimit,
      windowMs: options.windowMs,
      syncReserve: 0.2,
      // The sandbox shares this test process's event loop, so under a busy CI its arrival stamps
      // can lag by more than the default 100 ms margin; real deployments have no such coupling.
      safetyMarginMs: 250,
      keyPrefix: `${prefix}:budget`,
    });
    const client = new PartnerClient({
      baseUrl: sandbox.url,
      token: TOKEN,
      gate: new RecordingGate(budget, gateLog),
      retryAfterDefaultMs: 1_000,
    });
    const workerOptions = {
      connection,
      prefix,
      concurrency: 2,
      limiter: { max: 1_000_000, duration: 1_000 },
    };
    workers.push(
      new Worker(
        'create-shipment',
        async (job: Job) =>
          runPartnerStep(queues.create, () =>
            client.createShipment(validShipment(job.data.reference) as ShipmentRequest),
          ),
        workerOptions,
      ),
      new Worker(
        'sync-status',
        async () => runPartnerStep(queues.sync, () => client.listShipments({ perPage: 1 })),
        workerOptions,
      ),
    );
  }
  stack = { gateLog, sandbox, queues, workers, connections, prefix };
  return stack;
}

async function drain(s: Stack, creates: number, syncs: number, timeoutMs: number) {
  await s.queues.create.addBulk(
    Array.from({ length: creates }, (_, i) => ({
      name: 'create',
      data: { reference: `ref-${i}` },
      opts: { attempts: 1 },
    })),
  );
  await s.queues.sync.addBulk(
    Array.from({ length: syncs }, () => ({ name: 'sync', data: {}, opts: { attempts: 1 } })),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [c, sy] = await Promise.all([
      s.queues.create.getJobCounts('completed', 'failed'),
      s.queues.sync.getJobCounts('completed', 'failed'),
    ]);
    const createsDone = c.completed! + c.failed!;
    const syncsDone = sy.completed! + sy.failed!;
    const done = createsDone + syncsDone;
    if (createsDone >= creates && syncsDone >= syncs) return { failed: c.failed! + sy.failed! };
    if (Date.now() > deadline) throw new Error(`backlog not drained: ${done}/${creates + syncs}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('one partner budget across processes and queues', () => {
  it('never makes the provider answer 429 and never exceeds the limit in any sliding window', async () => {
    const s = await startStack({ sandboxLimit: 10, budgetLimit: 10, windowMs: 1_500 });

    const { failed } = await drain(s, 20, 8, 20_000);

    const audit = auditRequests(s.sandbox.requests, { windowMs: 1_500, token: TOKEN });
    expect(failed).toBe(0);
    expect(audit.rateLimited).toBe(0);
    expect(audit.admitted).toBe(28);
    expect(audit.maxInWindow).toBeLessThanOrEqual(10);
    expect(s.sandbox.shipments()).toHaveLength(20);
  }, 40_000);

  it('after a 429 sends nothing before Retry-After, from any queue, and the limited jobs keep their attempts', async () => {
    // The provider lowered the limit without telling us: the budget lets through more than it
    // accepts, so the sandbox answers 429 with Retry-After.
    const s = await startStack({ sandboxLimit: 3, budgetLimit: 30, windowMs: 1_000 });
    const draining = drain(s, 8, 0, 30_000);
    await waitUntil(() => s.sandbox.requests.some((r) => r.status === 429));
    // Sync work arriving now has met no 429 itself: only the shared block can hold it back.
    await s.queues.sync.addBulk(
      Array.from({ length: 4 }, () => ({ name: 'sync', data: {}, opts: { attempts: 1 } })),
    );
    const { failed } = await draining;
    await waitUntil(async () => (await s.queues.sync.getJobCounts('completed')).completed === 4);

    const audit = auditRequests(s.sandbox.requests, { windowMs: 1_000, token: TOKEN });
    expect(audit.rateLimited).toBeGreaterThan(0);
    // Every request granted after a process learnt of a 429 waited out its Retry-After. (Requests
    // already on the wire when the 429 came back may still meet a 429 of their own.)
    expect(s.gateLog.blocks.length).toBeGreaterThan(0);
    for (const block of s.gateLog.blocks) {
      // The block starts when Redis stores it, which can be well before this process notes it on
      // a busy machine, so it also ends that much earlier: the last 100 ms are not judged.
      const early = s.gateLog.grants.filter(
        (t) => t > block.at && t < block.at + block.waitMs - 100,
      );
      expect(early).toEqual([]);
    }
    // Every job had a single attempt: a 429 that used one would have failed it.
    expect(failed).toBe(0);
    expect(await s.queues.sync.getJobCounts('failed')).toEqual({ failed: 0 });
    expect(s.sandbox.shipments()).toHaveLength(8);
    // Its own waits allow 30 s for the backlog and 15 s for the sync jobs: the test may use them.
  }, 60_000);
});

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
