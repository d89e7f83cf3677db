import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Queue, UnrecoverableError as Unrecoverable } from 'bullmq';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { builtCli } from './built-connector.js';
import { REDIS_URL } from './redis.js';

/** `connector …` as its own process (the built CLI), with exactly `env` set. */
export async function runConnector(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [builtCli(), ...args], {
    // Only PATH and HOME from the test's environment: a setting the test did not give is unset.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** Everything the whole configuration requires, for commands that load it. */
export function fullConnectorEnv(prefix: string, urls: { partner: string; store: string }) {
  return {
    LOG_LEVEL: 'warn',
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    PARTNER_API_URL: urls.partner,
    PARTNER_API_TOKEN: 'sbx_demo_token',
    SHOPIFY_SHOP: 'flow-test.myshopify.com',
    SHOPIFY_ACCESS_TOKEN: 'shpat_flow_test',
    SHOPIFY_WEBHOOK_SECRET: 'whsec_flow_test',
    SHOPIFY_ADMIN_API_URL: urls.store,
    SENDER_NAME: 'Lager',
    SENDER_PHONE: '+4570000000',
    SENDER_STREET: 'Industrivej 1',
    SENDER_CITY: 'Vejle',
    SENDER_POSTAL_CODE: '7100',
    SENDER_COUNTRY_CODE: 'DK',
  };
}

/**
 * Adds a job and fails it for good at once, as a job that used up its attempts would be, without
 * running its work (no worker of the queue may be running).
 */
export async function addFailedJob(
  queue: Queue,
  redis: Redis,
  job: { name: string; data: object; jobId: string },
  reason = 'failed in a test',
): Promise<void> {
  await queue.add(job.name, job.data, { jobId: job.jobId, attempts: 1 });
  const worker = new Worker(queue.name, null, {
    connection: redis,
    prefix: queue.opts.prefix ?? 'bull',
    autorun: false,
  });
  try {
    const token = 'test-failer';
    const taken = await worker.getNextJob(token);
    if (taken?.id !== job.jobId) throw new Error(`expected to take ${job.jobId}, got ${taken?.id}`);
    const error: Unrecoverable = new UnrecoverableError(reason);
    await taken.moveToFailed(error, token);
  } finally {
    await worker.close();
  }
}
