import type { OrderMarksSeen } from '../../domain/order-marks.js';

export interface MetafieldEntry {
  namespace: string;
  key: string;
  value: string;
  type: 'single_line_text_field' | 'multi_line_text_field';
}

/** What metafieldsDelete takes besides the owner. */
export type MetafieldKey = Pick<MetafieldEntry, 'namespace' | 'key'>;

/** What an order's marks still need; an absent or empty part is not sent. */
export interface OrderMarkChanges {
  setMetafields?: MetafieldEntry[];
  deleteMetafields?: MetafieldKey[];
  addTags?: string[];
  removeTags?: string[];
}

/** Marking an order for staff (metafields, tags, note line): what the mark-order job writes. */
export interface OrderMarks {
  setOrderMetafields(orderId: string, entries: MetafieldEntry[]): Promise<void>;
  /** Deletes these metafields from the order; one the order does not have is skipped silently. */
  deleteOrderMetafields(orderId: string, keys: MetafieldKey[]): Promise<void>;
  addOrderTags(orderId: string, tags: string[]): Promise<void>;
  removeOrderTags(orderId: string, tags: string[]): Promise<void>;
  /** One request, none when nothing changes. Not atomic, but every part is idempotent. */
  writeOrderMarks(orderId: string, changes: OrderMarkChanges): Promise<void>;
  /** Null when the store has no such order. */
  readOrderMarks(orderId: string): Promise<OrderMarksSeen | null>;
  /** Adds `text` as a new last line of the order note, unless that exact line is already there. */
  appendOrderNote(orderId: string, text: string): Promise<void>;
}
