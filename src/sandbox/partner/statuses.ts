import { SandboxError } from './errors.js';

/** The five statuses the contract documents, with the labels staff see in the panel. */
export const DOCUMENTED_STATUSES = [
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type DocumentedStatus = (typeof DOCUMENTED_STATUSES)[number];

const DOCUMENTED_LABELS: Record<DocumentedStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export function isDocumentedStatus(status: string): status is DocumentedStatus {
  return (DOCUMENTED_STATUSES as readonly string[]).includes(status);
}

export function isTerminal(status: string): boolean {
  return status === 'delivered' || status === 'cancelled';
}

/** Every status the sandbox's provider knows, with its label. */
export class StatusCatalog {
  private readonly labels = new Map<string, string>(Object.entries(DOCUMENTED_LABELS));

  has(status: string): boolean {
    return this.labels.has(status);
  }

  label(status: string): string {
    const label = this.labels.get(status);
    if (label === undefined) throw new SandboxError(400, `The status ${status} is not known.`);
    return label;
  }
}
