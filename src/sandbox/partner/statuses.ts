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

/** Lowercase words joined by underscores, the shape of the documented values. */
const STATUS_SHAPE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Every status the sandbox's provider knows: the documented ones, plus any a test introduced
 * ("new status values may appear over time"), each with its label.
 */
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

  /** Adds an undocumented status, or relabels one added before; documented ones stay as they are. */
  introduce(status: string, label: string | undefined): void {
    if (isDocumentedStatus(status)) {
      throw new SandboxError(400, `${status} is a documented status: use advance or cancel.`);
    }
    if (!STATUS_SHAPE.test(status)) {
      throw new SandboxError(400, 'A status is lowercase words joined by underscores.');
    }
    if (label !== undefined) {
      if (label.trim() === '') throw new SandboxError(400, 'The label may not be blank.');
      this.labels.set(status, label);
    } else if (!this.labels.has(status)) {
      throw new SandboxError(400, `The status ${status} is new: give it a label.`);
    }
  }
}
