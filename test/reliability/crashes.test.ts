import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';
import { orderFigures, orderInputs, type Rig, seededRandom, startRig } from './rig.js';
import { note, report, size } from './size.js';

const ORDERS = size(220, 30);
const PROCESSES = size(3, 2);
/** SIGKILLs in all, the two rounds that kill one job twice included. */
const KILLS = size(16, 5);
const SEED = Number(process.env.RELIABILITY_SEED ?? 20261121);

let rig: Rig | undefined;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && rig) note(rig.logs().slice(-6_000));
  await rig?.close();
  rig = undefined;
});

/** Ids of the create-shipment jobs running right now. */
async function activeCreates(r: Rig): Promise<string[]> {
  if (r.redis.status === 'wait') await r.redis.connect();
  return r.redis.lrange(`${r.prefix}:create-shipment:active`, 0, -1);
}

describe('worker processes killed with SIGKILL at random moments', () => {
  it(
    'registers, marks and fulfils every order exactly once',
    async () => {
      note(`crashes seed ${SEED}`);
      const random = seededRandom(SEED);
      // Each partner answer takes a while, so kills land in the middle of jobs.
      rig = await startRig({ redisUrl: REDIS_URL, sandbox: { latencyMs: 40 } });
      const r = rig;
      for (let i = 0; i < PROCESSES; i += 1) await r.spawnWorker(i);
      const started = Date.now();
      const ids = orderInputs(8_100_000, ORDERS).map((o) => o.id as string);
      const placing = r.placeOrders(orderInputs(8_100_000, ORDERS), 4);

      // One job killed twice in a row: kill every process while creates run, until one of them
      // was cut off (BullMQ counts it as stalled); once it runs again, kill every process again.
      const everyProcess = async () => {
        for (let i = 0; i < PROCESSES; i += 1) await r.kill(i);
        await Promise.all(Array.from({ length: PROCESSES }, (_, i) => r.spawnWorker(i)));
      };
      const stalls = async (id: string) =>
        Number((await r.redis.hget(`${r.prefix}:create-shipment:${id}`, 'stc')) ?? 0);
      let twice: string | undefined;
      // Slow answers for now, so that a job that runs again is still running when looked at.
      r.sandbox.setLatency(1_500);
      for (let round = 1; !twice; round++) {
        if (round > 5) throw new Error('no job was cut off twice in a row in 5 rounds');
        const victims = await waitUntil<string[] | undefined>(
          async () => {
            const active = await activeCreates(r);
            return active.length > 0 ? active : undefined;
          },
          { timeoutMs: 60_000, what: 'a create job to run' },
        );
        await everyProcess();
        // A cut-off job back at work (or 'none' once every cut-off job has finished: try again).
        const cut = await waitUntil<string | undefined>(
          async () => {
            const active = await activeCreates(r);
            let waiting = false;
            for (const id of victims) {
              if ((await stalls(id)) !== 1) continue;
              if (active.includes(id)) return id;
              const finished = await r.redis.hget(
                `${r.prefix}:create-shipment:${id}`,
                'finishedOn',
              );
              if (!finished) waiting = true;
            }
            return waiting ? undefined : 'none';
          },
          { timeoutMs: 60_000, intervalMs: 10, what: 'a killed job to run again' },
        );
        if (cut === 'none') continue;
        await everyProcess();
        // It counts only if the second kill caught the job still at work (on a busy machine it
        // may have finished in between): then BullMQ notes a second stall; otherwise, again.
        const second = await waitUntil<'stalled' | 'finished' | undefined>(
          async () => {
            if ((await stalls(cut)) >= 2) return 'stalled';
            const key = `${r.prefix}:create-shipment:${cut}`;
            return (await r.redis.hget(key, 'finishedOn')) ? 'finished' : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 10, what: 'the second cut to be noticed' },
        );
        if (second === 'stalled') twice = cut;
      }
      r.sandbox.setLatency(40);

      // Then single processes at random moments, while orders come in and parcels ship.
      while (r.counts.killed < KILLS) {
        await sleep(300 + random() * 1_500);
        r.shipAll();
        const victim = Math.floor(random() * PROCESSES);
        await r.kill(victim);
        if (random() < 0.3) await sleep(random() * 1_000);
        await r.spawnWorker(victim);
      }
      const lastKill = Date.now();
      await placing;
      // Every order registered (and marked), then every parcel handed over and fulfilled.
      await waitUntil(() => r.check(ids).missing.length === 0, {
        timeoutMs: 240_000,
        intervalMs: 250,
        what: 'every order to be registered',
      });
      r.shipAll();
      const done = await r.waitForAll(ids, size(240_000, 60_000));
      const recoveredMs = Date.now() - lastKill;

      const stalledTwice = await stalls(twice);
      const failed = await r.failedJobs();
      report('crashes', {
        seed: SEED,
        orders: ORDERS,
        processes: PROCESSES,
        kills: r.counts.killed,
        jobKilledTwice: `${twice} (stalled ${stalledTwice}×)`,
        ...orderFigures(done),
        fulfilments: done.fulfilments,
        failedForGood: failed,
        totalMs: Date.now() - started,
        recoveredAfterLastKillMs: recoveredMs,
      });
      expect(r.counts.killed).toBeGreaterThanOrEqual(KILLS);
      expect(stalledTwice).toBeGreaterThanOrEqual(2);
      expect(done).toMatchObject({ shipments: ORDERS, duplicates: [], fulfilments: ORDERS });
      expect(failed).toEqual({});
    },
    size(900_000, 180_000),
  );
});
