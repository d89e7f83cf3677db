import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxCore } from './core.js';
import { parseCreatedAfter } from './created-after.js';
import { SandboxError } from './errors.js';
import { MALFORMED_BODY_KINDS } from './faults.js';
import { countRequests } from './request-counts.js';
import { SEED_MAX, seedShipments } from './seed.js';
import { DOCUMENTED_STATUSES } from './statuses.js';
import { trackingRecord } from './views.js';

/** Outside /api/v1 on purpose: no client configured with the API base can reach these. */
export const CONTROL_PREFIX = '/_sandbox';

const nonBlank = z.string().trim().min(1);
const advanceBody = z
  .object({
    status: z.enum(DOCUMENTED_STATUSES).optional(),
    /** Needed only when two accounts use the same reference. */
    account: z.string().optional(),
    /** Set with this advance instead of the default (PostNord and a generated number at shipped). */
    carrier: nonBlank.optional(),
    tracking_number: nonBlank.optional(),
  })
  .default({});
const trackingBody = z.object({
  carrier: nonBlank.optional(),
  tracking_number: nonBlank.optional(),
  account: z.string().optional(),
});
/** An ISO 8601 date or date-time, read as `created_after` is (no offset: Copenhagen time). */
const instant = z.string().transform((text, ctx) => {
  const parsed = parseCreatedAfter(text);
  if (!parsed) ctx.addIssue({ code: 'custom', message: 'Not an ISO 8601 date or date-time.' });
  return parsed ?? new Date(Number.NaN);
});
const seedBody = z.object({
  count: z.number().int().min(1).max(SEED_MAX).optional(),
  references: z.array(z.string()).max(SEED_MAX).optional(),
  referencePrefix: z.string().optional(),
  account: z.string().optional(),
  status: z.enum(DOCUMENTED_STATUSES).optional(),
  createdAt: instant.optional(),
  createdFrom: instant.optional(),
  createdTo: instant.optional(),
});
const countsQuery = z.object({
  /** ms since the epoch, or an ISO 8601 date-time. */
  since: z
    .string()
    .transform((text, ctx) => {
      const ms = /^\d+$/.test(text) ? Number(text) : parseCreatedAfter(text)?.getTime();
      if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'since: ms or ISO 8601.' });
      return ms ?? 0;
    })
    .optional(),
  token: z.string().optional(),
});
const cancelBody = z.object({ account: z.string().optional() }).default({});
const statusBody = z.object({
  status: z.string().min(1),
  /** Needed the first time a status is used. */
  label: z.string().optional(),
  account: z.string().optional(),
});
const revokeBody = z.object({ token: z.string().min(1) });
const issueBody = z.object({ email: z.string().min(1), name: z.string().optional() });
const faultsBody = z.object({
  failNextCreates: z.number().int().min(0).optional(),
  latencyMs: z.number().min(0).optional(),
  malformedNext: z.enum(MALFORMED_BODY_KINDS).optional(),
});
const rateLimitBody = z.object({
  limit: z.number().int().min(1),
  windowMs: z.number().int().min(1),
});
const shipmentsQuery = z.object({ account: z.string().optional() });

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input ?? undefined);
  if (!parsed.success) throw new SandboxError(400, z.prettifyError(parsed.error));
  return parsed.data;
}

/** Local-only switches for tests, demos and shells; they need no partner token. */
export function registerControlRoutes(app: FastifyInstance, core: SandboxCore): void {
  app.get('/', async () => ({
    accounts: core.accounts.list().map(({ email, name, token }) => ({ email, name, token })),
    rateLimit: core.limiter.settings,
    faults: {
      failNextCreates: core.faults.failCreates,
      latencyMs: core.faults.latencyMs,
      malformedNext: core.faults.malformedNext,
    },
  }));

  app.get('/shipments', async (request) => {
    const { account } = parse(shipmentsQuery, request.query);
    return core.shipments
      .all()
      .filter((s) => account === undefined || s.accountEmail === account)
      .map((s) => ({ account: s.accountEmail, ...trackingRecord(s) }));
  });

  // Benchmarks and backdated shipments: created as POST /shipments would, minus the rate limit.
  app.post('/shipments/seed', async (request, reply) => {
    const body = parse(seedBody, request.body);
    return reply.code(201).send(seedShipments(core, body));
  });

  app.post<{ Params: { reference: string } }>('/shipments/:reference/advance', async (request) => {
    const { status, account, carrier, tracking_number } = parse(advanceBody, request.body);
    return trackingRecord(
      core.advance(request.params.reference, status, account, {
        carrier,
        trackingNumber: tracking_number,
      }),
    );
  });

  // A carrier change or a re-labelled parcel: new values, a new updated_at, no history entry.
  app.post<{ Params: { reference: string } }>('/shipments/:reference/tracking', async (request) => {
    const { carrier, tracking_number, account } = parse(trackingBody, request.body);
    return trackingRecord(
      core.setTracking(
        request.params.reference,
        { carrier, trackingNumber: tracking_number },
        account,
      ),
    );
  });

  app.post<{ Params: { reference: string } }>('/shipments/:reference/cancel', async (request) => {
    const { account } = parse(cancelBody, request.body);
    return trackingRecord(core.cancel(request.params.reference, account));
  });

  // A status the contract does not document, so clients' tolerance of new values can be tested.
  app.post<{ Params: { reference: string } }>('/shipments/:reference/status', async (request) => {
    const { status, label, account } = parse(statusBody, request.body);
    return trackingRecord(
      core.setUndocumentedStatus(request.params.reference, status, label, account),
    );
  });

  app.post('/tokens', async (request, reply) => {
    const { email, name } = parse(issueBody, request.body);
    const issued = core.accounts.issue(email, name);
    return reply.code(201).send({ token: issued.token, account: issued.accountEmail });
  });

  app.post('/tokens/revoke', async (request) => {
    const { token } = parse(revokeBody, request.body);
    if (!core.accounts.revoke(token)) throw new SandboxError(404, 'No such token.');
    return { revoked: true };
  });

  app.post('/faults', async (request) => {
    const { failNextCreates, latencyMs, malformedNext } = parse(faultsBody, request.body);
    if (failNextCreates !== undefined) core.faults.setFailCreates(failNextCreates);
    if (latencyMs !== undefined) core.faults.setLatency(latencyMs);
    if (malformedNext !== undefined) core.faults.setMalformed(malformedNext);
    return {
      failNextCreates: core.faults.failCreates,
      latencyMs: core.faults.latencyMs,
      malformedNext: core.faults.malformedNext,
    };
  });

  app.post('/rate-limit', async (request) => {
    const { limit, windowMs } = parse(rateLimitBody, request.body);
    core.limiter.configure(limit, windowMs);
    return core.limiter.settings;
  });

  app.get('/requests', async () => core.requests);

  app.get('/requests/counts', async (request) => {
    const { since, token } = parse(countsQuery, request.query);
    return countRequests(core.requests, { since, token });
  });

  app.delete('/requests', async (_request, reply) => {
    core.requests.length = 0;
    return reply.code(204).send();
  });
}
