import { afterEach, describe, expect, it } from 'vitest';
import { deadPort, type RunningIntake, startIntake } from '../helpers/intake.js';

let intake: RunningIntake | undefined;

afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

async function get(url: string) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('/healthz and /readyz', () => {
  it('answers /healthz 200 and /readyz 200 when Redis answers', async () => {
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

  it('stays ready while the partner refuses the token: intake needs no partner', async () => {
    intake = await startIntake({ name: 'health-token' });

    await intake.authGuard.tokenRefused();

    expect(await get(`${intake.url}/readyz`)).toMatchObject({
      status: 200,
      body: { status: 'ready', problems: [] },
    });
  });

  it('answers /readyz 503 when Redis is down, without waiting for it, while /healthz stays 200', async () => {
    const port = await deadPort();
    intake = await startIntake({
      name: 'health-down',
      redisUrl: `redis://127.0.0.1:${port}`,
      waitForRedis: false,
    });

    // Redis never comes back here: a connection that queued commands would never answer.
    expect(await get(`${intake.url}/readyz`)).toMatchObject({
      status: 503,
      body: { status: 'unavailable', problems: ['Redis does not answer.'] },
    });
    expect((await get(`${intake.url}/healthz`)).status).toBe(200);
  });
});

describe('/status', () => {
  it('says the partner is ok, with the budget, when nothing is wrong', async () => {
    intake = await startIntake({ name: 'status-ok' });

    const { status, body } = await get(`${intake.url}/status`);

    expect(status).toBe(200);
    expect(body).toMatchObject({
      intake: { ready: true, problems: [] },
      partner: { status: 'ok', problems: [], tokenRefusedSince: null, rateLimitedForMs: 0 },
    });
    expect(body.partner).toMatchObject({ budget: { remaining: 60, sent: 0 } });
  });

  it('names the refused token and the variable to fix, until the token is accepted again', async () => {
    intake = await startIntake({ name: 'status-token' });

    await intake.authGuard.tokenRefused();
    const refused = (await get(`${intake.url}/status`)).body.partner as Record<string, unknown>;

    expect(refused.status).toBe('token_refused');
    expect(refused.tokenRefusedSince).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const problems = refused.problems as string[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/partner API refused the token \(401\)/);
    expect(problems[0]).toContain('PARTNER_API_TOKEN');

    // The container health check: non-2xx while the queues are paused.
    expect(await get(`${intake.url}/status/partner`)).toMatchObject({
      status: 503,
      body: { status: 'token_refused' },
    });

    await intake.authGuard.tokenAccepted();
    expect((await get(`${intake.url}/status`)).body.partner).toMatchObject({ status: 'ok' });
    expect((await get(`${intake.url}/status/partner`)).status).toBe(200);
  });

  it('shows how long a 429 holds every request back', async () => {
    intake = await startIntake({ name: 'status-429' });

    await intake.budget.block(600_000);
    const partner = (await get(`${intake.url}/status`)).body.partner as Record<string, unknown>;

    expect(partner.status).toBe('rate_limited');
    expect(partner.rateLimitedForMs).toBeGreaterThan(590_000);
    expect(partner.rateLimitedForMs).toBeLessThanOrEqual(600_000);
    expect((partner.problems as string[])[0]).toMatch(
      /rate-limited the token \(429\).*another 600 s/,
    );
  });

  it('answers 503 when Redis is down, saying nothing is known', async () => {
    const port = await deadPort();
    intake = await startIntake({
      name: 'status-down',
      redisUrl: `redis://127.0.0.1:${port}`,
      waitForRedis: false,
    });

    expect(await get(`${intake.url}/status`)).toMatchObject({
      status: 503,
      body: { intake: { ready: false }, partner: { status: 'unknown' } },
    });
  });
});
