import type { IssuedToken, SandboxAccount } from './accounts.js';
import { copenhagenTimestamp } from './copenhagen-time.js';
import type { StoredShipment } from './state.js';

/** Wire bodies as the contract's "Resources and their fields" lists them. */

export interface TokenRecord {
  token: string;
  token_type: 'Bearer';
  account: string;
  created_at: string;
}

export interface CreateResponse {
  reference: string;
  order_number: string;
  status: string;
  created_at: string;
}

export interface TrackingRecord {
  reference: string;
  order_number: string;
  status: string;
  status_label: string;
  carrier: string | null;
  tracking_number: string | null;
  updated_at: string;
  history: { status: string; occurred_at: string }[];
}

export interface ListItem {
  reference: string;
  order_number: string;
  status: string;
  updated_at: string;
}

export function tokenRecord(issued: IssuedToken, account: SandboxAccount): TokenRecord {
  return {
    token: issued.token,
    token_type: 'Bearer',
    account: account.name,
    created_at: copenhagenTimestamp(issued.createdAt),
  };
}

export function createResponse(s: StoredShipment): CreateResponse {
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    created_at: copenhagenTimestamp(s.createdAt),
  };
}

/** How history entries are listed; the contract's reference behaviour is oldest first. */
export type HistoryOrder = 'oldest-first' | 'newest-first';

export function trackingRecord(
  s: StoredShipment,
  historyOrder: HistoryOrder = 'oldest-first',
): TrackingRecord {
  const history = s.history.map((h) => ({
    status: h.status,
    occurred_at: copenhagenTimestamp(h.occurredAt),
  }));
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    status_label: s.statusLabel,
    carrier: s.carrier,
    tracking_number: s.trackingNumber,
    updated_at: copenhagenTimestamp(s.updatedAt),
    history: historyOrder === 'newest-first' ? history.reverse() : history,
  };
}

export function listItem(s: StoredShipment): ListItem {
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    updated_at: copenhagenTimestamp(s.updatedAt),
  };
}
