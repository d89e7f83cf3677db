import { setTimeout as sleep } from 'node:timers/promises';
import { type Got, got, RequestError } from 'got';
import type { z } from 'zod';
import {
  fieldErrorsFrom,
  type ShipmentRequest,
  shipmentRequestSchema,
} from '../domain/shipment-contract.js';
import type { Logger } from '../log.js';
import { describeZodIssues, lookedUpSchema, readAnswer } from './create-answer.js';
import {
  PartnerAuthError,
  PartnerBudgetExhaustedError,
  PartnerNetworkError,
  PartnerNotFoundError,
  PartnerRateLimitedError,
  PartnerServerError,
  PartnerUnexpectedResponseError,
  PartnerUrlMisconfiguredError,
  PartnerValidationError,
} from './errors.js';
import type { RequestGate, RequestPriority } from './gate.js';
import {
  createResponseSchema,
  errorBodySchema,
  type ListQuery,
  listEnvelopeSchema,
  tokenRecordSchema,
  trackingRecordSchema,
} from './schemas.js';
import { toCopenhagenIso } from './time.js';

export interface PartnerClientOptions {
  /** Including the version prefix, e.g. …/api/v1. */
  baseUrl: string;
  /** Not needed for `exchangeToken`. */
  token?: string;
  timeoutMs?: number;
  retryAfterDefaultMs?: number;
  /** A longer Retry-After is capped (and logged). */
  retryAfterMaxMs?: number;
  /** Without one the client sends freely (CLI, tests). */
  gate?: RequestGate;
  logger?: Logger;
  /** Never throws into the client. */
  onRequest?: (outcome: PartnerRequestOutcome) => void;
}

export interface PartnerRequestOutcome {
  /** The route, never an id: e.g. `GET /shipments/{reference}`. */
  endpoint: string;
  /** Undefined when no answer came. */
  status: number | undefined;
  durationMs: number;
  reference?: string;
}

/** Taken before reading the order, so a job that must wait learns so before doing that work. */
export interface BudgetSlot {
  release(): Promise<void>;
}

/** A longer 429 block sends the job back to its queue rather than holding a worker. */
const HOLD_THROUGH_BLOCK_MS = 10_000;

class ReservedSlot implements BudgetSlot {
  used = false;
  constructor(
    readonly id: string | undefined,
    private readonly gate: RequestGate | undefined,
  ) {}

  async release(): Promise<void> {
    if (this.used) return;
    this.used = true;
    if (this.id !== undefined) await this.gate?.release?.(this.id);
  }
}

export interface CreateShipmentOptions {
  slot?: BudgetSlot;
  /** Never called for a request that was held back. If it throws, nothing is sent. */
  onSending?(): Promise<void>;
}

/** The public methods alone (keyof leaves private members out), so a fake can stand in. */
export type PartnerApi = Pick<PartnerClient, keyof PartnerClient>;

interface PartnerRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  searchParams?: Record<string, string | undefined>;
  /** Undefined for POST /token, which needs no bearer token and no budget. */
  priority?: RequestPriority;
  beforeSend?(): Promise<void>;
  slot?: BudgetSlot;
  reference?: string;
}

export class PartnerClient {
  private readonly http: Got;

  constructor(private readonly options: PartnerClientOptions) {
    this.http = got.extend({
      prefixUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { accept: 'application/json', 'user-agent': 'shopify-partner-connector' },
      timeout: { request: options.timeoutMs ?? 15_000 },
      // The queues own retries; a hidden retry here would spend budget and attempts unseen.
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
    });
  }

  async exchangeToken(credentials: Record<'email' | 'password' | 'name', string>) {
    return this.call({
      method: 'POST',
      path: 'token',
      body: credentials,
      schema: tokenRecordSchema,
    });
  }

  /** `created` is false on 200: the reference was already registered. */
  async createShipment(request: ShipmentRequest, options: CreateShipmentOptions = {}) {
    // Parsing strips every field the contract does not name (pricing, account ids, ...).
    const checked = shipmentRequestSchema.safeParse(request);
    if (!checked.success) {
      throw new PartnerValidationError(
        'Shipment request failed the local check against the API limits.',
        fieldErrorsFrom(checked.error),
      );
    }
    const reference = checked.data.reference;
    const { status, body, unreadable } = await this.send({
      method: 'POST',
      path: 'shipments',
      reference,
      body: checked.data,
      priority: 'create',
      beforeSend: options.onSending,
      slot: options.slot,
    });
    const created = status === 201;
    const read = readAnswer(createResponseSchema, body, reference);
    if (read.complete) return { created, shipment: read.shipment };
    this.options.logger?.warn(
      { reference, status, issues: unreadable ?? read.issues },
      read.shipment
        ? 'partner create answer does not match the contract; kept its order number'
        : 'partner create answer cannot be read; looking the shipment up',
    );
    return { created, shipment: read.shipment ?? (await this.lookUpCreated(reference, status)) };
  }

  /** The 2xx proves the shipment exists, so it is asked for by reference, never created again. */
  private async lookUpCreated(reference: string, status: number) {
    const confirmed = `Partner API answered ${status} to POST /shipments, so the shipment exists, but that answer could not be read`;
    const answer = await this.send({
      method: 'GET',
      path: `shipments/${encodeURIComponent(reference)}`,
      reference,
      priority: 'create',
    }).catch((error) => {
      if (!(error instanceof PartnerNotFoundError)) throw error;
      throw new PartnerUnexpectedResponseError(
        `${confirmed} and GET /shipments/{reference} does not find it (yet). Retrying with the same reference cannot make a second shipment; do not create it by hand.`,
        { status, cause: error },
      );
    });
    const read = readAnswer(lookedUpSchema, answer.body, reference);
    if (read.complete) return read.shipment;
    if (read.shipment) {
      this.options.logger?.warn(
        { reference, issues: read.issues },
        'partner shipment record does not match the contract; kept its order number',
      );
      return read.shipment;
    }
    throw new PartnerUnexpectedResponseError(
      `${confirmed}, nor could GET /shipments/{reference} (${answer.unreadable ?? read.issues}). Retrying with the same reference cannot make a second shipment; do not create it by hand.`,
      { status },
    );
  }

  /** Throws PartnerBudgetExhaustedError when the budget is spent. */
  async reserveCreate(): Promise<BudgetSlot> {
    const gate = this.options.gate;
    if (!gate) return new ReservedSlot(undefined, undefined);
    const decision = await gate.take('create');
    if (!decision.granted) throw new PartnerBudgetExhaustedError(decision.waitMs);
    return new ReservedSlot(decision.slot, gate);
  }

  async getShipment(
    reference: string,
    options: { priority?: RequestPriority; slot?: BudgetSlot } = {},
  ) {
    return this.call({
      method: 'GET',
      path: `shipments/${encodeURIComponent(reference)}`,
      reference,
      schema: trackingRecordSchema,
      priority: options.priority ?? 'sync',
      slot: options.slot,
    });
  }

  async listShipments(query: ListQuery = {}, options: { priority?: RequestPriority } = {}) {
    return this.call({
      method: 'GET',
      path: 'shipments',
      // got leaves out the undefined ones.
      searchParams: {
        status: query.status,
        created_after: query.createdAfter && toCopenhagenIso(query.createdAfter),
        per_page: query.perPage?.toString(),
        page: query.page?.toString(),
      },
      schema: listEnvelopeSchema,
      priority: options.priority ?? 'sync',
    });
  }

  /** A 429 since the place was taken holds the request until a near Retry-After: work is kept. */
  private async sendsInSlot(gate: RequestGate, slot: BudgetSlot | undefined): Promise<boolean> {
    if (!(slot instanceof ReservedSlot) || slot.used) return false;
    slot.used = true;
    // A gate that cannot move a place keeps it where it was taken: still this request's.
    if (slot.id === undefined || !gate.confirm) return true;
    for (;;) {
      const outcome = await gate.confirm(slot.id);
      if (outcome !== 'blocked') return outcome === 'moved';
      const blockedMs = (await gate.blockedForMs?.()) ?? 0;
      if (blockedMs > HOLD_THROUGH_BLOCK_MS) {
        // Too long to hold a worker: taking anew says how long to wait.
        await gate.release?.(slot.id);
        return false;
      }
      await sleep(Math.max(1, blockedMs));
    }
  }

  private async call<S extends z.ZodType>(call: PartnerRequest & { schema: S }) {
    const { status, body, unreadable } = await this.send(call);
    const parsed = call.schema.safeParse(body);
    if (!parsed.success) {
      throw new PartnerUnexpectedResponseError(
        `Partner API answered ${status} to ${endpointOf(call)} with a body that does not match the contract (${unreadable ?? describeZodIssues(parsed.error)}).`,
        { status, cause: parsed.error },
      );
    }
    return parsed.data;
  }

  /** The success body is returned unchecked (undefined when not JSON); anything else throws. */
  private async send(call: PartnerRequest) {
    const headers: Record<string, string> = {};
    if (call.priority !== undefined) {
      if (!this.options.token) throw new PartnerAuthError('No partner API token is configured.');
      headers.authorization = `Bearer ${this.options.token}`;
      const gate = this.options.gate;
      if (gate && !(await this.sendsInSlot(gate, call.slot))) {
        const decision = await gate.take(call.priority);
        if (!decision.granted) throw new PartnerBudgetExhaustedError(decision.waitMs);
      }
    }
    await call.beforeSend?.();

    const what = endpointOf(call);
    const started = Date.now();
    const observe = (status: number | undefined) => {
      try {
        this.options.onRequest?.({
          endpoint: what,
          status,
          durationMs: Date.now() - started,
          ...(call.reference === undefined ? {} : { reference: call.reference }),
        });
      } catch {
        // Metrics never change how a request ends.
      }
    };
    const response = await this.http(call.path, {
      method: call.method,
      headers,
      json: call.body,
      searchParams: call.searchParams,
    }).catch((error) => {
      const code = error instanceof RequestError ? error.code : undefined;
      observe(undefined);
      this.options.logger?.warn(
        { method: call.method, path: call.path, code, ms: Date.now() - started },
        'partner request got no answer',
      );
      throw new PartnerNetworkError(
        code === 'ETIMEDOUT'
          ? `Partner API did not answer ${call.method} /${call.path} in time.`
          : `Partner API could not be reached (${code ?? 'network error'}).`,
        code,
        { cause: error },
      );
    });

    const status = response.statusCode;
    observe(status);
    this.options.logger?.debug(
      { method: call.method, path: call.path, status, ms: Date.now() - started },
      'partner request',
    );
    const json = parseJson(response.body);

    // A POST may answer 200: a create whose reference was already registered, say.
    if ((call.method === 'POST' ? [201, 200] : [200]).includes(status)) {
      return json.ok
        ? { status, body: json.value }
        : { status, body: undefined, unreadable: json.why };
    }

    const errorBody = errorBodySchema.safeParse(json.ok ? json.value : undefined);
    const apiMessage = errorBody.success ? errorBody.data.message : undefined;

    if (status === 401) {
      throw new PartnerAuthError(
        call.priority === undefined
          ? 'Partner API rejected the credentials (401).'
          : 'Partner API rejected the token (401): it is missing, malformed or revoked. Configure a valid PARTNER_API_TOKEN.',
        { status },
      );
    }
    if (status === 404) {
      // Only GET /shipments/{reference} may answer 404, and then with the API's Error body.
      if (!call.path.startsWith('shipments/') || !errorBody.success) {
        throw new PartnerUrlMisconfiguredError(
          `Partner API answered 404 to ${what}, a route the API always has: PARTNER_API_URL is misconfigured (it must be the base address including /api/v1, e.g. https://partner.example.com/api/v1).`,
          { status },
        );
      }
      throw new PartnerNotFoundError(
        `Partner API has no such shipment on this account (${what}).`,
        { status },
      );
    }
    if (status === 422) {
      if (!errorBody.success || !errorBody.data.errors) {
        throw new PartnerUnexpectedResponseError(
          `Partner API answered 422 to ${what} without field errors.`,
          { status, cause: errorBody.error },
        );
      }
      throw new PartnerValidationError(
        `Partner API refused the request: ${apiMessage}`,
        errorBody.data.errors,
        { status },
      );
    }
    if (status === 429) {
      const headerMs = parseRetryAfterMs(response.headers['retry-after']);
      const askedMs = headerMs ?? this.options.retryAfterDefaultMs ?? 60_000;
      const maxMs = this.options.retryAfterMaxMs ?? Number.POSITIVE_INFINITY;
      const retryAfterMs = Math.min(askedMs, maxMs);
      await this.options.gate?.block(retryAfterMs);
      this.options.logger?.warn(
        { path: call.path, retryAfterMs, ...(askedMs > maxMs ? { askedMs } : {}) },
        askedMs > maxMs
          ? 'partner API rate limited us for longer than PARTNER_RETRY_AFTER_MAX_MS; waiting that long instead'
          : 'partner API rate limited us',
      );
      throw new PartnerRateLimitedError(
        `Partner API rate limit reached; retry after ${Math.ceil(retryAfterMs / 1000)} s.`,
        retryAfterMs,
        headerMs !== undefined,
        { status },
      );
    }
    if (status >= 500) {
      throw new PartnerServerError(`Partner API failed on its side (${status}) on ${what}.`, {
        status,
      });
    }
    throw new PartnerUnexpectedResponseError(
      `Partner API answered ${status} to ${what}${apiMessage ? `: ${apiMessage}` : ''}.`,
      { status },
    );
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (text.trim().length === 0) return { ok: false, why: 'the body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Never echo the body itself.
    const kind = /^\s*</.test(text) ? 'HTML or XML' : 'JSON cut off or broken';
    return { ok: false, why: `the body is not JSON (${kind}, ${text.length} bytes)` };
  }
}

/** The route, never an id. */
function endpointOf({ method, path }: PartnerRequest): string {
  return `${method} /${path.startsWith('shipments/') ? 'shipments/{reference}' : path}`;
}

/** Seconds (the API's form) or an HTTP date; undefined when absent or unusable. */
export function parseRetryAfterMs(header: string | string[] | undefined, now: number = Date.now()) {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
