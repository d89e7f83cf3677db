import type {
  CreateResponse,
  ListItem,
  TokenRecord,
  TrackingRecord,
} from '../../partner/schemas.js';
import { toCopenhagenIso } from '../../partner/time.js';
import type { IssuedToken, SandboxAccount } from './accounts.js';
import type { StoredShipment } from './state.js';
import { STATUS_LABELS } from './transitions.js';

/** Wire bodies, typed by the shared schemas so the sandbox cannot drift from the client. */

export function tokenRecord(issued: IssuedToken, account: SandboxAccount): TokenRecord {
  return {
    token: issued.token,
    token_type: 'Bearer',
    account: account.name,
    created_at: toCopenhagenIso(issued.createdAt),
  };
}

export function createResponse(s: StoredShipment): CreateResponse {
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    created_at: toCopenhagenIso(s.createdAt),
  };
}

export function trackingRecord(s: StoredShipment): TrackingRecord {
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    status_label: STATUS_LABELS[s.status],
    carrier: s.carrier,
    tracking_number: s.trackingNumber,
    updated_at: toCopenhagenIso(s.updatedAt),
    history: s.history.map((h) => ({
      status: h.status,
      occurred_at: toCopenhagenIso(h.occurredAt),
    })),
  };
}

export function listItem(s: StoredShipment): ListItem {
  return {
    reference: s.reference,
    order_number: s.orderNumber,
    status: s.status,
    updated_at: toCopenhagenIso(s.updatedAt),
  };
}
