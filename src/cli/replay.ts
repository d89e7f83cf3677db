import type { Command } from 'commander';
import {
  type ReplayedJob,
  type ReplayRequest,
  replayJobs,
  UnknownJobError,
  UnknownQueueError,
} from '../compose/replay.js';
import { recordCliAction } from './audit.js';
import { parseDay } from './dates.js';
import { EXIT, environmentOrExit, exitOn } from './exit.js';
import { withSharedParts } from './with-parts.js';

function formatReplayedJob(job: ReplayedJob, dryRun: boolean): string {
  const name = `${job.queue}/${job.jobId}${job.orderId ? ` (order ${job.orderId})` : ''}`;
  switch (job.outcome) {
    case 'retried':
      return `${name}: ${dryRun ? 'would retry' : 'retried'}${job.failedReason ? `; it failed: ${job.failedReason.trimEnd().replaceAll('\n', '\n    ')}` : ''}`;
    case 'already_registered':
      return `${name}: the order is registered at the provider: ${dryRun ? 'would not send' : 'not sent'} again${
        job.markRetried
          ? `; its failed mark job ${job.markRetried} ${dryRun ? 'would be' : 'is'} retried`
          : ''
      }`;
    case 'already_queued':
      return `${name}: already queued again by someone else`;
    case 'not_failed':
      return `${name}: ${job.state}, not failed: left as it is`;
  }
}

export function formatReplaySummary(jobs: ReplayedJob[], request: ReplayRequest): string {
  if (jobs.length === 0) {
    return `Nothing to replay: no failed job in ${request.queue}${request.since ? ` since ${request.since.toISOString()}` : ''}.`;
  }
  const count = (outcome: ReplayedJob['outcome']) =>
    jobs.filter((job) => job.outcome === outcome).length;
  const parts = [
    `${count('retried')} ${request.dryRun ? 'would be retried' : 'retried'}`,
    `${count('already_registered')} of registered orders not sent again`,
    `${count('already_queued') + count('not_failed')} left as they were`,
  ];
  return `${request.dryRun ? 'Dry run, nothing changed: ' : ''}${jobs.length} job(s) in ${request.queue}: ${parts.join(', ')}.`;
}

interface ReplayOptions {
  queue: string;
  job?: string;
  failed?: boolean;
  since?: Date;
  dryRun?: boolean;
}

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description(
      'retry failed jobs of a queue through the same rules as the service (no second shipment for a registered order)',
    )
    .requiredOption('--queue <name>', 'the queue, e.g. create-shipment or mark-order')
    .option('--job <id>', 'retry this one job, e.g. order-5551234')
    .option('--failed', 'retry every failed job of the queue')
    .option(
      '--since <date>',
      'with --failed: only jobs that failed since, YYYY-MM-DD (UTC) or ISO',
      parseDay,
    )
    .option('--dry-run', 'say what would be done, change nothing')
    .action(async (opts: ReplayOptions) => {
      if (Boolean(opts.job) === Boolean(opts.failed) || (opts.since && !opts.failed)) {
        console.error('Give either --job <id> or --failed (--since goes with --failed).');
        process.exitCode = EXIT.usage;
        return;
      }
      const dryRun = opts.dryRun ?? false;
      const request: ReplayRequest = {
        queue: opts.queue,
        ...(opts.job ? { jobId: opts.job } : {}),
        ...(opts.since ? { since: opts.since } : {}),
        dryRun,
      };
      await withSharedParts(async (parts, config) => {
        // A replay may send orders: only into the environment of these records.
        if (!(await environmentOrExit(parts.redis, config, dryRun))) return;
        const jobs = await replayJobs(parts, request)
          .catch(exitOn([UnknownQueueError], EXIT.usage))
          .catch(exitOn([UnknownJobError], EXIT.noInput));
        if (!jobs) return;
        for (const job of jobs) console.log(formatReplayedJob(job, dryRun));
        console.log(formatReplaySummary(jobs, request));
        if (dryRun) return;
        const changed = jobs.filter((job) => job.outcome === 'retried' || job.markRetried);
        await recordCliAction(parts.redis, parts.prefix, {
          action: 'replay',
          queue: request.queue,
          jobIds: changed.map((job) => job.jobId),
          orderIds: changed.flatMap((job) => (job.orderId ? [job.orderId] : [])),
          count: changed.length,
          detail: opts.job
            ? `job ${opts.job}`
            : `every failed job${opts.since ? ` since ${opts.since.toISOString()}` : ''}`,
        });
      });
    });
}
