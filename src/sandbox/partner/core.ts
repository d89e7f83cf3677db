import { AccountRegistry, type SandboxAccount } from './accounts.js';
import { AutoAdvancer } from './auto-advance.js';
import { SandboxError } from './errors.js';
import { Faults } from './faults.js';
import { LoginThrottle } from './login-throttle.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import type { RequestLogEntry } from './request-log.js';
import type { AcceptedShipment } from './shipment-rules.js';
import { ShipmentStore, type StoredShipment, type TrackingChange } from './state.js';
import {
  type DocumentedStatus,
  isDocumentedStatus,
  isTerminal,
  StatusCatalog,
} from './statuses.js';
import type { HistoryOrder } from './views.js';

export interface SandboxCoreOptions {
  accounts: readonly SandboxAccount[];
  rateLimit: number;
  rateWindowMs: number;
  autoAdvanceMs?: number;
  latencyMs: number;
  tokenLockout: { maxFailures: number; failureWindowMs: number; lockoutMs: number };
  /** The clock for timestamps in records; the rate limit always uses real time. */
  clock: () => Date;
  /**
   * The order `GET /shipments/{reference}` lists history in. The contract promises oldest first
   * only "in the reference behaviour"; newest first is a provider that does otherwise.
   */
  historyOrder?: HistoryOrder;
}

/** A carrier or tracking number is text; null or blank would be a shipment never handed over. */
function checkTrackingChange(change: TrackingChange): void {
  for (const value of [change.carrier, change.trackingNumber]) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new SandboxError(400, 'A carrier or tracking number is non-blank text.');
    }
  }
}

/** Everything the sandbox knows, independent of HTTP; shared by the API and control routes. */
export class SandboxCore {
  readonly accounts: AccountRegistry;
  readonly statuses = new StatusCatalog();
  readonly shipments: ShipmentStore;
  readonly limiter: SlidingWindowLimiter;
  readonly loginThrottle: LoginThrottle;
  readonly faults = new Faults();
  readonly requests: RequestLogEntry[] = [];
  private readonly autoAdvancer: AutoAdvancer | undefined;
  /** The provider's clock, for timestamps in records. */
  readonly now: () => Date;
  readonly historyOrder: HistoryOrder;

  constructor(options: SandboxCoreOptions) {
    this.now = options.clock;
    this.historyOrder = options.historyOrder ?? 'oldest-first';
    this.accounts = new AccountRegistry(options.accounts, options.clock);
    this.shipments = new ShipmentStore(options.clock, this.statuses);
    this.limiter = new SlidingWindowLimiter(options.rateLimit, options.rateWindowMs);
    this.loginThrottle = new LoginThrottle(options.tokenLockout);
    this.faults.setLatency(options.latencyMs);
    this.autoAdvancer =
      options.autoAdvanceMs === undefined ? undefined : new AutoAdvancer(options.autoAdvanceMs);
  }

  /** `at` backdates the creation (seeding only); the API creates at the clock's now. */
  create(accountEmail: string, request: AcceptedShipment, at?: Date) {
    const outcome = this.shipments.createOrFind(accountEmail, request, at);
    if (outcome.created && this.autoAdvancer) {
      const { shipment } = outcome;
      this.autoAdvancer.follow(() => {
        // A manual advance or cancel may have finished it meanwhile.
        if (isTerminal(shipment.status)) return false;
        // Held in an undocumented status: wait until a control call puts it back on the path.
        if (isDocumentedStatus(shipment.status)) this.shipments.transition(shipment);
        return !isTerminal(shipment.status);
      });
    }
    return outcome;
  }

  /** `handover` names the carrier or tracking number to set with this advance (else the default at shipped). */
  advance(
    reference: string,
    to?: DocumentedStatus,
    accountEmail?: string,
    handover: TrackingChange = {},
  ): StoredShipment {
    checkTrackingChange(handover);
    const shipment = this.shipments.resolve(reference, accountEmail);
    const at = this.now();
    this.shipments.transition(shipment, to, at);
    return this.shipments.applyTracking(shipment, handover, at);
  }

  setTracking(reference: string, change: TrackingChange, accountEmail?: string): StoredShipment {
    checkTrackingChange(change);
    if (change.carrier === undefined && change.trackingNumber === undefined) {
      throw new SandboxError(400, 'Give a carrier, a tracking number or both.');
    }
    return this.shipments.setTracking(this.shipments.resolve(reference, accountEmail), change);
  }

  cancel(reference: string, accountEmail?: string): StoredShipment {
    return this.advance(reference, 'cancelled', accountEmail);
  }

  /** Puts the shipment into an undocumented status; `label` is needed the first time it is used. */
  setUndocumentedStatus(
    reference: string,
    status: string,
    label?: string,
    accountEmail?: string,
  ): StoredShipment {
    const shipment = this.shipments.resolve(reference, accountEmail);
    this.statuses.introduce(status, label);
    return this.shipments.setUndocumented(shipment, status);
  }

  stop(): void {
    this.autoAdvancer?.stopAll();
  }
}
