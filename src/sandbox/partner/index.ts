export { type SandboxAccount, SEEDED_ACCOUNTS } from './accounts.js';
export { auditRequests, type RequestAudit } from './audit.js';
export type { MalformedBodyKind, MalformedBodyOptions } from './faults.js';
export { MALFORMED_BODY_KINDS } from './faults.js';
export type { RequestCountFilter, RequestCounts } from './request-counts.js';
export type { RequestLogEntry } from './request-log.js';
export type { SeedOptions, SeedResult } from './seed.js';
export {
  type AdvanceOptions,
  type PartnerSandbox,
  type PartnerSandboxOptions,
  startPartnerSandbox,
} from './server.js';
export type { AcceptedShipment } from './shipment-rules.js';
export type { HistoryEntry, StoredShipment, TrackingChange } from './state.js';
export { DOCUMENTED_STATUSES, type DocumentedStatus } from './statuses.js';
export type { TrackingRecord } from './views.js';
