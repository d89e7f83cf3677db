export type MetafieldType = 'single_line_text_field' | 'multi_line_text_field';

export interface MetafieldEntry {
  namespace: string;
  key: string;
  value: string;
  type: MetafieldType;
}

/** Names a metafield on an owner (the order): what metafieldsDelete takes besides the owner. */
export interface MetafieldKey {
  namespace: string;
  key: string;
}

/** Marking an order for staff (metafields, tags, note line): what the mark-order job writes. */
export interface OrderMarks {
  setOrderMetafields(orderId: string, entries: MetafieldEntry[]): Promise<void>;
  /** Deletes these metafields from the order; one the order does not have is skipped silently. */
  deleteOrderMetafields(orderId: string, keys: MetafieldKey[]): Promise<void>;
  addOrderTags(orderId: string, tags: string[]): Promise<void>;
  removeOrderTags(orderId: string, tags: string[]): Promise<void>;
  /** Adds `text` as a new last line of the order note, unless that exact line is already there. */
  appendOrderNote(orderId: string, text: string): Promise<void>;
}
