import { userInfo } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffAction } from '../../src/records/audit-trail.js';
import { addFailedJob, fullConnectorEnv, runConnector } from '../helpers/connector-cli.js';
import { type RunningIntake, startIntake } from '../helpers/intake.js';
import { REDIS_URL } from '../helpers/redis.js';

const LOGIN = { user: 'ops', password: 'board-password-1', readOnly: false };
const ORDER_ID = '5550003';
const JOB_ID = `order-${ORDER_ID}`;

let intake: RunningIntake | undefined;
afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

function basic(user: string, password: string) {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

describe('connector audit', () => {
  it('lists a board retry with the user and the time, with only the Redis settings', async () => {
    intake = await startIntake({ name: 'audit-board', adminLogin: LOGIN });
    const queue = intake.queues.createShipment;
    await addFailedJob(queue, intake.redis, {
      name: '#1003 create shipment',
      data: { orderId: ORDER_ID, source: 'orders/paid' },
      jobId: JOB_ID,
    });
    const before = Date.now();
    const retry = await fetch(
      `${intake.url}/admin/queues/api/queues/create-shipment/${JOB_ID}/retry`,
      {
        method: 'PUT',
        headers: { ...basic(LOGIN.user, LOGIN.password), origin: intake.url },
      },
    );
    expect(retry.status).toBeLessThan(300);

    const env = { REDIS_URL, QUEUE_PREFIX: intake.prefix };
    const text = await runConnector(['audit'], env);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}ops \(board\) {2}retry in create-shipment: 1 job\(s\) {2}jobs order-5550003 {2}orders 5550003$/,
    );

    const json = await runConnector(['audit', '--json', '--order', ORDER_ID], env);
    const [action] = JSON.parse(json.stdout) as StaffAction[];
    expect(action).toMatchObject({ who: 'ops', via: 'board', action: 'retry', count: 1 });
    expect(action!.at).toBeGreaterThanOrEqual(before);
    expect(action!.at).toBeLessThanOrEqual(Date.now());

    const other = await runConnector(['audit', '--order', '5550004'], env);
    expect(other.stdout).toContain('No staff action recorded on order 5550004');
  }, 60_000);

  it('records the commands that change jobs or records, with the OS user: replay, order --replay, environment adopt-token and forget', async () => {
    intake = await startIntake({ name: 'audit-cli' });
    await addFailedJob(intake.queues.markOrder, intake.redis, {
      name: 'order 5550004 mark registered',
      data: { orderId: '5550004', kind: 'registered' },
      jobId: 'registered-5550004',
    });
    const env = fullConnectorEnv(intake.prefix, {
      partner: 'http://127.0.0.1:9/api/v1',
      store: 'http://127.0.0.1:9',
    });
    const dry = await runConnector(
      ['replay', '--queue', 'mark-order', '--job', 'registered-5550004', '--dry-run'],
      env,
    );
    expect(dry.code).toBe(0);
    const replay = await runConnector(
      ['replay', '--queue', 'mark-order', '--job', 'registered-5550004'],
      env,
    );
    expect(replay.code).toBe(0);
    const order = await runConnector(['order', '5550005', '--replay'], env);
    expect(order.code).toBe(0);

    const json = await runConnector(['audit', '--json'], env);
    const actions = JSON.parse(json.stdout) as StaffAction[];
    // Newest first; the dry run changed nothing and is not there.
    expect(actions).toMatchObject([
      {
        who: userInfo().username,
        via: 'cli',
        action: 'order --replay',
        queue: 'create-shipment',
        jobIds: ['order-5550005'],
        orderIds: ['5550005'],
        count: 1,
      },
      {
        who: userInfo().username,
        via: 'cli',
        action: 'replay',
        queue: 'mark-order',
        jobIds: ['registered-5550004'],
        orderIds: ['5550004'],
        count: 1,
        detail: 'job registered-5550004',
      },
    ]);

    const adopt = await runConnector(['environment', 'adopt-token'], {
      ...env,
      PARTNER_API_TOKEN: 'sbx_reissued_token',
    });
    expect(adopt.code).toBe(0);
    const adopted = JSON.parse(
      (await runConnector(['audit', '--json', '--limit', '1'], env)).stdout,
    ) as StaffAction[];
    expect(adopted).toMatchObject([
      {
        who: userInfo().username,
        action: 'environment adopt-token',
        detail: 'token of http://127.0.0.1:9/api/v1 adopted',
      },
    ]);

    const forget = await runConnector(['environment', 'forget', '--yes'], {
      ...env,
      PARTNER_API_TOKEN: 'sbx_reissued_token',
    });
    expect(forget.code).toBe(0);
    const after = JSON.parse(
      (await runConnector(['audit', '--json'], env)).stdout,
    ) as StaffAction[];
    expect(after).toMatchObject([{ action: 'environment forget', via: 'cli' }]);
    expect(after[0]!.count).toBeGreaterThan(0);
  }, 90_000);

  it('refuses a limit that is not a number and an order that is neither id nor name', async () => {
    const env = { REDIS_URL, QUEUE_PREFIX: 'audit-usage' };
    expect((await runConnector(['audit', '--limit', 'x'], env)).code).not.toBe(0);
    const odd = await runConnector(['audit', '--order', '<1003>'], env);
    expect(odd.stderr).toContain('Not a Shopify order id or name');
    expect(odd.code).toBe(2);
  }, 30_000);
});
