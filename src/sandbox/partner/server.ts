import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../log.js';
import { type SandboxAccount, SEEDED_ACCOUNTS } from './accounts.js';
import { API_PREFIX } from './api-routes.js';
import { buildApp } from './app.js';
import { CONTROL_PREFIX } from './control-routes.js';
import { SandboxCore } from './core.js';
import type { MalformedBodyKind, MalformedBodyOptions } from './faults.js';
import { countRequests, type RequestCountFilter, type RequestCounts } from './request-counts.js';
import type { RequestLogEntry } from './request-log.js';
import { type SeedOptions, type SeedResult, seedShipments } from './seed.js';
import type { StoredShipment, TrackingChange } from './state.js';
import type { DocumentedStatus } from './statuses.js';
import { type HistoryOrder, type TrackingRecord, trackingRecord } from './views.js';

export interface PartnerSandboxOptions {
  /** 0 picks a free port (the default, for tests). */
  port?: number;
  host?: string;
  /** Requests per sliding window per token (default 60). */
  rateLimit?: number;
  rateWindowMs?: number;
  /** When set, every new shipment takes one step pending → … → delivered per interval. */
  autoAdvanceMs?: number;
  /** Added before every API response. */
  latencyMs?: number;
  /** Off unless given: tests stay quiet. */
  logger?: Logger | false;
  /** `POST /token` lockout: failures allowed per window and how long the lockout lasts. */
  tokenLockout?: { maxFailures?: number; failureWindowMs?: number; lockoutMs?: number };
  /** Clock for timestamps in records (created_at, history, …); the rate limit uses real time. */
  clock?: () => Date;
  /**
   * The order of history in `GET /shipments/{reference}`: oldest first (the contract's reference
   * behaviour, the default) or newest first, which the contract does not rule out.
   */
  historyOrder?: HistoryOrder;
}

/** Options of `advance`: the account (when references collide) and the carrier to hand over to. */
export interface AdvanceOptions extends TrackingChange {
  account?: string;
}

export interface PartnerSandbox {
  /** The API base address including /api/v1, e.g. `http://127.0.0.1:4010/api/v1`. */
  readonly url: string;
  /** The control endpoints' base, e.g. `http://127.0.0.1:4010/_sandbox`. */
  readonly controlUrl: string;
  readonly port: number;
  readonly accounts: readonly SandboxAccount[];
  /** Every API request under /api/v1 (401s and 429s included), in order of completion. */
  readonly requests: readonly RequestLogEntry[];
  resetRequestLog(): void;
  /** The request log counted per endpoint (`GET /shipments/{reference}`), since or for a token. */
  requestCounts(filter?: RequestCountFilter): RequestCounts;
  /** Issues a fresh token for a seeded account. */
  issueToken(accountEmail: string, name?: string): string;
  /** Returns false for a token that was never issued. */
  revokeToken(token: string): boolean;
  /**
   * One step forward, or every step up to `toStatus`. The third argument is the account's email
   * (only if references collide) or options that also name the carrier and tracking number to
   * set with this advance (else PostNord and a generated number at shipped).
   */
  advance(
    reference: string,
    toStatus?: DocumentedStatus,
    accountOrOptions?: string | AdvanceOptions,
  ): TrackingRecord;
  /**
   * A carrier change or a re-labelled parcel on a live shipment: sets what is given, moves
   * updated_at (no history entry); the same values again change nothing.
   */
  setTracking(reference: string, change: AdvanceOptions): TrackingRecord;
  /**
   * Creates shipments as `POST /shipments` would, without validation or the rate limit, possibly
   * backdated (see docs/sandbox.md); refuses (creating nothing) on a reference already in use.
   */
  seedShipments(options: SeedOptions): SeedResult;
  cancel(reference: string, accountEmail?: string): TrackingRecord;
  /**
   * Puts a live shipment into a status the contract does not document (`held_at_customs`);
   * `label` is needed the first time a status is used. Shows whether clients tolerate new values.
   */
  setUndocumentedStatus(
    reference: string,
    status: string,
    label?: string,
    accountEmail?: string,
  ): TrackingRecord;
  setRateLimit(limit: number, windowMs: number): void;
  /** The next `n` creates store the shipment, then answer 500. */
  failNextCreates(n: number): void;
  /**
   * The next API answer (or the next `count` matching ones) gets a malformed body: see
   * MalformedBodyKind. Default kind: schema (the status kept, a body no schema accepts).
   */
  failNextWithMalformedBody(kind?: MalformedBodyKind, options?: MalformedBodyOptions): void;
  /** How many malformed answers are still to be sent. */
  malformedPending(): number;
  setLatency(ms: number): void;
  /** Stored shipments (copies), oldest first; the request as validated, pricing stripped. */
  shipments(accountEmail?: string): StoredShipment[];
  /** The underlying Fastify app, for `inject` in tests. */
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/** Starts a local, in-memory implementation of the Partner Shipment API (docs/sandbox.md). */
export async function startPartnerSandbox(
  options: PartnerSandboxOptions = {},
): Promise<PartnerSandbox> {
  const core = new SandboxCore({
    accounts: SEEDED_ACCOUNTS,
    rateLimit: options.rateLimit ?? 60,
    rateWindowMs: options.rateWindowMs ?? 60_000,
    autoAdvanceMs: options.autoAdvanceMs,
    latencyMs: options.latencyMs ?? 0,
    tokenLockout: {
      maxFailures: options.tokenLockout?.maxFailures ?? 5,
      failureWindowMs: options.tokenLockout?.failureWindowMs ?? 60_000,
      lockoutMs: options.tokenLockout?.lockoutMs ?? 60_000,
    },
    clock: options.clock ?? (() => new Date()),
    ...(options.historyOrder ? { historyOrder: options.historyOrder } : {}),
  });
  const app = buildApp(core, options.logger ?? false);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    port,
    accounts: SEEDED_ACCOUNTS,
    get requests() {
      return core.requests;
    },
    resetRequestLog: () => {
      core.requests.length = 0;
    },
    issueToken: (accountEmail, name) => core.accounts.issue(accountEmail, name).token,
    revokeToken: (token) => core.accounts.revoke(token),
    requestCounts: (filter) => countRequests(core.requests, filter),
    advance: (reference, toStatus, accountOrOptions) => {
      const { account, ...handover } =
        typeof accountOrOptions === 'string'
          ? { account: accountOrOptions }
          : (accountOrOptions ?? {});
      return trackingRecord(core.advance(reference, toStatus, account, handover));
    },
    setTracking: (reference, { account, ...change }) =>
      trackingRecord(core.setTracking(reference, change, account)),
    seedShipments: (options) => seedShipments(core, options),
    cancel: (reference, accountEmail) => trackingRecord(core.cancel(reference, accountEmail)),
    setUndocumentedStatus: (reference, status, label, accountEmail) =>
      trackingRecord(core.setUndocumentedStatus(reference, status, label, accountEmail)),
    setRateLimit: (limit, windowMs) => core.limiter.configure(limit, windowMs),
    failNextCreates: (n) => core.faults.setFailCreates(n),
    failNextWithMalformedBody: (kind = 'schema', options) =>
      core.faults.setMalformed(kind, options),
    malformedPending: () => core.faults.malformedPending,
    setLatency: (ms) => core.faults.setLatency(ms),
    shipments: (accountEmail) =>
      structuredClone(
        core.shipments
          .all()
          .filter((s) => accountEmail === undefined || s.accountEmail === accountEmail),
      ),
    app,
    close: async () => {
      core.stop();
      await app.close();
    },
  };
}
