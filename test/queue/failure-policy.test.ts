import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { Counters } from '../../src/metrics/counters.js';
import { PartnerAuthGuard } from '../../src/partner/auth-guard.js';
import {
  PartnerAuthError,
  PartnerBudgetExhaustedError,
  PartnerServerError,
  PartnerUrlMisconfiguredError,
  PartnerValidationError,
} from '../../src/partner/errors.js';
import { FinalJobError, runWithFailurePolicy } from '../../src/queue/failure-policy.js';
import { StoreThrottledError, StoreUserError } from '../../src/store/errors.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { waitForJob, waitUntil } from '../helpers/shipment-stack.js';

const logger = createLogger({ level: 'silent' });

let redis: Redis;
let prefix: string;
let queue: Queue;
let worker: Worker | undefined;
let counters: Counters;
let guard: PartnerAuthGuard;
let givenUp: string[];

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('policy');
  queue = new Queue('policy', { connection: redis, prefix });
  counters = new Counters(redis, prefix);
  guard = new PartnerAuthGuard(redis, prefix, [queue], logger);
  givenUp = [];
});

afterEach(async () => {
  await worker?.close(true);
  worker = undefined;
  await queue.close();
  await dropKeys(redis, prefix);
  await redis.quit();
});

/**
 * A real worker whose job's work throws what `failures` holds, one per run, then succeeds; every
 * run goes through the failure policy as a catalog job's does.
 */
function runWorker(failures: unknown[]): { runs: () => number } {
  let runs = 0;
  worker = new Worker(
    'policy',
    (job: Job) =>
      runWithFailurePolicy(
        job,
        async () => {
          const failure = failures[runs++];
          if (failure) throw failure;
          return 'done';
        },
        {
          queue,
          authGuard: guard,
          counters,
          logger,
          async onGiveUp(reason) {
            givenUp.push(reason);
          },
        },
      ),
    {
      connection: testRedis(),
      prefix,
      limiter: { max: 1_000_000, duration: 1_000 },
      settings: { backoffStrategy: () => 1 },
    },
  );
  worker.on('error', () => {});
  return { runs: () => runs };
}

const add = (attempts = 3) =>
  queue.add('policy', {}, { jobId: 'job-1', attempts, backoff: { type: 'custom' } });

describe('the failure policy', () => {
  it('sends a job back for a spent budget without using an attempt', async () => {
    const worker = runWorker([new PartnerBudgetExhaustedError(20)]);
    await add(1);

    const job = await waitForJob(queue, 'job-1', 'completed');

    expect(worker.runs()).toBe(2);
    expect(job.attemptsMade).toBe(1);
    expect(givenUp).toEqual([]);
  });

  it('pauses the partner queues on a refused token, keeping the job and its attempts', async () => {
    runWorker([new PartnerAuthError('Partner API refused the token (401)', { status: 401 })]);
    await add(1);

    await waitUntil(async () => (await counters.read()).partner_auth_failures, {
      what: 'the refusal to be handled',
    });
    // Back in the queue (not failed, not delayed), which the pause keeps from the workers.
    await waitForJob(queue, 'job-1', 'waiting');
    expect(await queue.isPaused()).toBe(true);
    expect(await guard.refusedSince()).not.toBeNull();
    expect((await counters.read()).partner_auth_failures).toBe(1);
    expect((await queue.getJob('job-1'))?.attemptsMade).toBe(0);
    expect(givenUp).toEqual([]);
  });

  it('pauses the partner queues on a misconfigured PARTNER_API_URL, and never gives the order up with it', async () => {
    runWorker([
      new PartnerUrlMisconfiguredError('PARTNER_API_URL is misconfigured', { status: 404 }),
    ]);
    await add(1);

    await waitUntil(async () => (await guard.paused())?.reason === 'url_misconfigured', {
      what: 'the queues to be paused for the address',
    });
    await waitForJob(queue, 'job-1', 'waiting');
    expect(await queue.isPaused()).toBe(true);
    expect((await queue.getJob('job-1'))?.attemptsMade).toBe(0);
    expect(givenUp).toEqual([]);
  });

  it('retries a transient failure with backoff and succeeds within the attempts', async () => {
    const worker = runWorker([
      new PartnerServerError('Partner API failed (500)', { status: 500 }),
      new StoreThrottledError('GetOrder', 10, 1_000),
    ]);
    await add(3);

    const job = await waitForJob(queue, 'job-1', 'completed');

    expect(worker.runs()).toBe(3);
    expect(job.attemptsMade).toBe(3);
    expect(givenUp).toEqual([]);
  });

  it('gives up on a transient failure at the last attempt, with a reason an admin can act on', async () => {
    const outage = () => new PartnerServerError('Partner API failed (500).', { status: 500 });
    runWorker([outage(), outage(), outage()]);
    await add(3);

    const job = await waitForJob(queue, 'job-1', 'failed');

    const reason =
      'Gave up after 3 attempts: Partner API failed (500). Replay the job once the cause is fixed.';
    expect(job.failedReason).toBe(reason);
    expect(givenUp).toEqual([reason]);
  });

  it('fails a permanent error at once, without retries', async () => {
    runWorker([
      new PartnerValidationError('Partner API refused the request (422).', {
        'receiver.address.postal_code': ['required'],
      }),
    ]);
    await add(5);

    const job = await waitForJob(queue, 'job-1', 'failed');

    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(
      'Partner API refused the request (422). Replay the job once the cause is fixed.',
    );
    expect(givenUp).toHaveLength(1);
  });

  it('fails a Shopify refusal (userErrors) at once', async () => {
    runWorker([new StoreUserError('tagsAdd', [{ field: ['tags'], message: 'is invalid' }])]);
    await add(5);

    const job = await waitForJob(queue, 'job-1', 'failed');

    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('Shopify refused tagsAdd: tags: is invalid');
  });

  it('fails a refusal the job recorded itself with its own words, and does not record it again', async () => {
    runWorker([new FinalJobError('Order #1001 cannot be shipped as it is.')]);
    await add(5);

    const job = await waitForJob(queue, 'job-1', 'failed');

    expect(job.failedReason).toBe('Order #1001 cannot be shipped as it is.');
    expect(givenUp).toEqual([]);
  });
});
