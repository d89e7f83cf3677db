import { afterEach, describe, expect, it } from 'vitest';
import { deadPort, type RunningIntake, startIntake } from '../helpers/intake.js';

let intake: RunningIntake | undefined;

afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

async function get(url: string) {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    elapsedMs: performance.now() - started,
  };
}

describe('/healthz and /readyz', () => {
  it('answers /healthz 200 and /readyz 200 when Redis answers and the token is accepted', async () => {
    intake = await startIntake({ name: 'health' });

    expect(await get(`${intake.url}/healthz`)).toMatchObject({
      status: 200,
      body: { status: 'ok' },
    });
    expect(await get(`${intake.url}/readyz`)).toMatchObject({
      status: 200,
      body: { status: 'ready', problems: [] },
    });
  });

  it('answers /readyz 503 naming the refused token until the token is accepted again', async () => {
    intake = await startIntake({ name: 'health-token' });

    await intake.authGuard.tokenRefused();
    const refused = await get(`${intake.url}/readyz`);

    expect(refused.status).toBe(503);
    expect(refused.body.status).toBe('unavailable');
    const problems = refused.body.problems as string[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/partner API refused the token \(401\)/);
    expect(problems[0]).toContain('PARTNER_API_TOKEN');
    // Liveness is not readiness: the process still answers.
    expect((await get(`${intake.url}/healthz`)).status).toBe(200);

    await intake.authGuard.tokenAccepted();
    expect((await get(`${intake.url}/readyz`)).status).toBe(200);
  });

  it('answers /readyz 503 at once when Redis is down, while /healthz stays 200', async () => {
    const port = await deadPort();
    intake = await startIntake({
      name: 'health-down',
      redisUrl: `redis://127.0.0.1:${port}`,
      waitForRedis: false,
    });

    const ready = await get(`${intake.url}/readyz`);

    expect(ready).toMatchObject({
      status: 503,
      body: { status: 'unavailable', problems: ['Redis does not answer.'] },
    });
    expect(ready.elapsedMs).toBeLessThan(1_000);
    expect((await get(`${intake.url}/healthz`)).status).toBe(200);
  });
});
