import { SandboxError } from './errors.js';
import type { AcceptedShipment } from './shipment-rules.js';
import { type DocumentedStatus, isTerminal, type StatusCatalog } from './statuses.js';
import { SANDBOX_CARRIER, stepsTo } from './transitions.js';

export interface HistoryEntry {
  status: string;
  occurredAt: Date;
}

/** One shipment as the provider's system holds it (the request is stored as validated). */
export interface StoredShipment {
  accountEmail: string;
  reference: string;
  orderNumber: string;
  /** Creation order across the sandbox; breaks ties between equal timestamps. */
  sequence: number;
  /** A documented status, or one a test introduced through the control endpoints. */
  status: string;
  statusLabel: string;
  carrier: string | null;
  trackingNumber: string | null;
  createdAt: Date;
  updatedAt: Date;
  history: HistoryEntry[];
  request: AcceptedShipment;
}

/** A carrier or tracking number to set; what is left out stays as it is. */
export interface TrackingChange {
  carrier?: string;
  trackingNumber?: string;
}

export interface ListFilter {
  status?: string;
  createdAtOrAfter?: Date;
}

/** All shipments, keyed per account so references never collide across accounts. */
export class ShipmentStore {
  private readonly byAccount = new Map<string, Map<string, StoredShipment>>();
  private sequence = 0;

  constructor(
    private readonly now: () => Date,
    private readonly statuses: StatusCatalog,
  ) {}

  find(accountEmail: string, reference: string): StoredShipment | undefined {
    return this.byAccount.get(accountEmail)?.get(reference);
  }

  /**
   * Creates the shipment unless the account already has the reference; says which happened.
   * `at` backdates the creation (seeding); the API always creates at the clock's now.
   */
  createOrFind(
    accountEmail: string,
    request: AcceptedShipment,
    at: Date = this.now(),
  ): { shipment: StoredShipment; created: boolean } {
    const existing = this.find(accountEmail, request.reference);
    if (existing) return { shipment: existing, created: false };
    this.sequence += 1;
    const shipment: StoredShipment = {
      accountEmail,
      reference: request.reference,
      orderNumber: `PS-${String(this.sequence).padStart(6, '0')}`,
      sequence: this.sequence,
      status: 'pending',
      statusLabel: this.statuses.label('pending'),
      carrier: null,
      trackingNumber: null,
      createdAt: at,
      updatedAt: at,
      history: [{ status: 'pending', occurredAt: at }],
      request,
    };
    let shipments = this.byAccount.get(accountEmail);
    if (!shipments) {
      shipments = new Map();
      this.byAccount.set(accountEmail, shipments);
    }
    shipments.set(request.reference, shipment);
    return { shipment, created: true };
  }

  /** The account's shipments matching the filter, newest first. */
  list(accountEmail: string, filter: ListFilter = {}): StoredShipment[] {
    const all = [...(this.byAccount.get(accountEmail)?.values() ?? [])];
    return all
      .filter((s) => filter.status === undefined || s.status === filter.status)
      .filter(
        (s) =>
          filter.createdAtOrAfter === undefined ||
          s.createdAt.getTime() >= filter.createdAtOrAfter.getTime(),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.sequence - a.sequence);
  }

  all(): StoredShipment[] {
    return [...this.byAccount.values()]
      .flatMap((m) => [...m.values()])
      .sort((a, b) => a.sequence - b.sequence);
  }

  /**
   * The one shipment with this reference; `accountEmail` is needed only when two accounts
   * use the same reference.
   */
  resolve(reference: string, accountEmail?: string): StoredShipment {
    // A lookup per account rather than a scan: benchmarks move shipments among tens of thousands.
    const matches = accountEmail
      ? [this.find(accountEmail, reference)].filter((s) => s !== undefined)
      : [...this.byAccount.values()].flatMap((m) => m.get(reference) ?? []);
    if (matches.length === 0) throw new SandboxError(404, `No shipment ${reference}.`);
    if (matches.length > 1) {
      throw new SandboxError(409, `Several accounts use ${reference}; name the account.`);
    }
    return matches[0]!;
  }

  /**
   * Moves the shipment forward (to `target`, or one step), appending one history entry per step.
   * `at` is for seeding only: the steps of a backdated shipment happen when it was created.
   */
  transition(
    shipment: StoredShipment,
    target?: DocumentedStatus,
    at: Date = this.now(),
  ): StoredShipment {
    for (const status of stepsTo(shipment.status, target)) {
      this.enter(shipment, status, at);
      if (status === 'shipped' || status === 'delivered') {
        // Each filled only if missing: a carrier booked earlier (setTracking) is kept.
        shipment.carrier ??= SANDBOX_CARRIER;
        // PostNord-like 20-digit number, derived from the order so it is stable in demos.
        shipment.trackingNumber ??= `0037073${String(shipment.sequence).padStart(13, '0')}`;
      }
    }
    return shipment;
  }

  /** Puts a live shipment into a status the catalog knows but the path does not (`held_at_customs`). */
  setUndocumented(shipment: StoredShipment, status: string): StoredShipment {
    if (isTerminal(shipment.status)) {
      throw new SandboxError(409, `A ${shipment.status} shipment cannot move any further.`);
    }
    this.enter(shipment, status, this.now());
    return shipment;
  }

  /**
   * A new carrier or tracking number (a carrier change, a re-labelled parcel); a change moves
   * updated_at but adds no history entry, which holds statuses only. Setting the values the
   * shipment already has changes nothing.
   */
  setTracking(shipment: StoredShipment, change: TrackingChange): StoredShipment {
    if (isTerminal(shipment.status)) {
      throw new SandboxError(409, `A ${shipment.status} shipment keeps its carrier and tracking.`);
    }
    return this.applyTracking(shipment, change, this.now());
  }

  /** Sets what is given and moves updated_at when anything changed. */
  applyTracking(shipment: StoredShipment, change: TrackingChange, at: Date): StoredShipment {
    const carrier = change.carrier ?? shipment.carrier;
    const trackingNumber = change.trackingNumber ?? shipment.trackingNumber;
    if (carrier === shipment.carrier && trackingNumber === shipment.trackingNumber) return shipment;
    shipment.carrier = carrier;
    shipment.trackingNumber = trackingNumber;
    shipment.updatedAt = at;
    return shipment;
  }

  private enter(shipment: StoredShipment, status: string, at: Date): void {
    shipment.status = status;
    shipment.statusLabel = this.statuses.label(status);
    shipment.updatedAt = at;
    shipment.history.push({ status, occurredAt: at });
  }
}
