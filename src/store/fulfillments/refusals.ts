import type { KnownRefusal } from '../errors.js';

/** Patterns match Shopify's own messages; FULFILLMENT_ORDER_* are its progress-report codes. */
export const FULFILLMENT_REFUSALS: readonly KnownRefusal[] = [
  {
    code: 'fulfillment_order_closed',
    // "Fulfillment order gid://… has an unfulfillable status= closed."
    pattern: /unfulfillable status\s*=\s*closed/i,
    explanation:
      'the fulfillment order is already closed: it was fulfilled or cancelled in Shopify',
  },
  {
    code: 'spans_locations',
    pattern: /must be assigned to a single location/i,
    explanation:
      'the call named fulfillment orders at more than one location; Shopify fulfils one location per call',
  },
  {
    code: 'not_fulfillable_by_app',
    pattern: /cannot create fulfillment for the fulfillment order/i,
    explanation:
      'the fulfillment order cannot be fulfilled by this app: another app or a fulfillment service owns it, or it is already fulfilled',
  },
  {
    code: 'fulfillment_order_status_invalid',
    userErrorCode: 'FULFILLMENT_ORDER_STATUS_INVALID',
    explanation:
      'progress can be reported only on an OPEN or IN_PROGRESS fulfillment order; this one is neither (fulfilled, cancelled, on hold or scheduled)',
  },
  {
    code: 'fulfillment_service_owned',
    userErrorCode: 'FULFILLMENT_ORDER_INVALID_FULFILLMENT_SERVICE_OWNERSHIP',
    explanation: 'a fulfillment service owns this fulfillment order, not the merchant',
  },
  {
    code: 'action_not_supported',
    userErrorCode: 'FULFILLMENT_ORDER_UNSUPPORTED_ACTION',
    explanation:
      'Shopify does not offer this action on the fulfillment order now (see its supportedActions)',
  },
];
