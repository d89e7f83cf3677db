import { Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { reconcileOrdersJob } from '../../jobs/reconcile-orders/job.js';
import { keepSchedules, upsertSchedules } from '../../src/compose/workers.js';
import { allJobs, intakeOnTestRedis, silentLogger, waitFor } from '../helpers/intake.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function parts(name: string) {
  const intake = await intakeOnTestRedis(name);
  closers.push(() => intake.close());
  return intake;
}

describe('keepSchedules', () => {
  it('brings the reconciliation scheduler back after Redis lost every key', async () => {
    const intake = await parts('schedules-lost');
    const queue = intake.queues.reconcileOrders;
    const stop = await keepSchedules(intake, { intervalMs: 50, logger: silentLogger });
    closers.push(async () => stop());
    expect(await queue.getJobSchedulersCount()).toBe(1);
    const [firstPass] = await allJobs(queue);
    expect(firstPass).toBeDefined();

    // What a restart without persistence, a FLUSHALL or a new empty instance leaves: every key
    // gone at once (one script, so the keeper never sees half of them). The keeper may put the
    // scheduler back before the count could be read, so the loss shows as a new pass.
    await intake.redis.eval(
      "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end",
      0,
      `${intake.prefix}:*`,
    );

    // The scheduler is back, and runs a pass at once, as at a first start.
    await waitFor(
      async () => {
        const passes = await allJobs(queue);
        return (
          (await queue.getJobSchedulersCount()) === 1 &&
          passes.length === 1 &&
          passes[0]?.id !== firstPass?.id
        );
      },
      { what: 'the scheduler to be back with a new pass' },
    );
    const [scheduler] = await queue.getJobSchedulers();
    expect(scheduler).toMatchObject({ key: reconcileOrdersJob.schedule?.id });
  });

  it('neither skips nor doubles a run when the scheduler is upserted again and again', async () => {
    const intake = await parts('schedules-repeat');
    const queue = intake.queues.reconcileOrders;
    await upsertSchedules(intake);
    // A worker runs the first pass at once; the scheduler then holds the next one.
    const worker = new Worker(queue.name, async () => 'done', {
      connection: intake.redis.duplicate(),
      prefix: intake.prefix,
    });
    closers.push(() => worker.close());
    await waitFor(async () => (await queue.getCompletedCount()) === 1, { what: 'the first run' });
    const next = await waitFor(async () => {
      const delayed = await queue.getDelayed();
      return delayed.length === 1 ? delayed[0] : undefined;
    });
    const [before] = await queue.getJobSchedulers();

    for (let i = 0; i < 5; i++) await upsertSchedules(intake);

    const delayed = await queue.getDelayed();
    expect(delayed.map((job) => job.id)).toEqual([next?.id]);
    const [after] = await queue.getJobSchedulers();
    expect(after?.next).toBe(before?.next);
    // The interval is 5 minutes: nothing else ran, nothing waits to run now.
    expect(await queue.getCompletedCount()).toBe(1);
    expect(await queue.getWaitingCount()).toBe(0);
  });

  it('puts back only missing schedulers, so processes with other settings do not take turns', async () => {
    const intake = await parts('schedules-other-settings');
    const queue = intake.queues.reconcileOrders;
    await upsertSchedules(intake);
    const [before] = await queue.getJobSchedulers();
    // Another process, deployed with another interval, refreshes what it finds.
    const other = {
      ...intake,
      settings: {
        ...intake.settings,
        intake: { ...intake.settings.intake, pollIntervalMs: 120_000 },
      },
    };

    await upsertSchedules(other, { onlyMissing: true });

    const [after] = await queue.getJobSchedulers();
    expect(after).toMatchObject({ every: before?.every, next: before?.next });
  });
});
