import type { SandboxCore } from './core.js';
import { SandboxError } from './errors.js';
import { CONTRACT_LIMITS } from './limits.js';
import type { AcceptedShipment } from './shipment-rules.js';
import type { DocumentedStatus } from './statuses.js';

/** Most shipments one seed call makes; far above any benchmark, low enough to stay quick. */
export const SEED_MAX = 100_000;

export interface SeedOptions {
  /** How many; may be left out when `references` is given. */
  count?: number;
  /** The references to use, in creation order; else `referencePrefix` + 1…count. */
  references?: string[];
  /** Default `seed-`. */
  referencePrefix?: string;
  /** The owning account's email; default the first seeded account (`demo@sandbox.local`). */
  account?: string;
  /** Every step up to this status is recorded at the creation instant; default `pending`. */
  status?: DocumentedStatus;
  /** One creation instant for all (not after the clock's now); default now. */
  createdAt?: Date;
  /** Or creation instants spread evenly from `createdFrom` to `createdTo`, oldest first. */
  createdFrom?: Date;
  createdTo?: Date;
}

export interface SeedResult {
  account: string;
  count: number;
  /** In creation order, oldest first. */
  references: string[];
  first_order_number: string;
  last_order_number: string;
}

/** The request every seeded shipment is stored with; valid under every rule of the contract. */
const SEED_REQUEST: Omit<AcceptedShipment, 'reference'> = {
  order_type: 'package',
  content_description: 'Cotton t-shirts',
  sender: {
    name: 'Warehouse',
    company_name: 'Demo Shop ApS',
    phone: '+4511223344',
    address: { street: 'Lagervej 1', city: 'Odense', postal_code: '5000', country_code: 'DK' },
  },
  receiver: {
    name: 'Karen Jensen',
    phone: '+4522334455',
    address: { street: 'Nørregade 7', city: 'Aarhus', postal_code: '8000', country_code: 'DK' },
  },
  packages: [{ quantity: 1, weight_kg: 1.2, length_cm: 30, width_cm: 20, height_cm: 10 }],
};

const bad = (message: string) => new SandboxError(400, message);

function referencesOf(options: SeedOptions): string[] {
  const { count, references } = options;
  if (references !== undefined) {
    if (count !== undefined && count !== references.length) {
      throw bad('count and the number of references differ.');
    }
    if (references.length === 0) throw bad('Give at least one reference.');
    if (references.length > SEED_MAX) throw bad(`At most ${SEED_MAX} shipments per seed.`);
    for (const reference of references) {
      if (reference.trim() === '' || [...reference].length > CONTRACT_LIMITS.referenceMaxChars) {
        throw bad(`A reference is 1 to ${CONTRACT_LIMITS.referenceMaxChars} characters.`);
      }
    }
    if (new Set(references).size !== references.length) throw bad('A reference is given twice.');
    return references;
  }
  if (count === undefined || !Number.isInteger(count) || count < 1 || count > SEED_MAX) {
    throw bad(`Give count (1 to ${SEED_MAX}) or references.`);
  }
  const prefix = options.referencePrefix ?? 'seed-';
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

/** The creation instant of each of `n` shipments, oldest first. */
function instantsOf(options: SeedOptions, n: number, now: Date): (i: number) => Date {
  const { createdAt, createdFrom, createdTo } = options;
  if (createdAt !== undefined && (createdFrom !== undefined || createdTo !== undefined)) {
    throw bad('Give createdAt or createdFrom and createdTo, not both.');
  }
  if ((createdFrom === undefined) !== (createdTo === undefined)) {
    throw bad('createdFrom and createdTo go together.');
  }
  const from = createdFrom ?? createdAt ?? now;
  const to = createdTo ?? from;
  if (from.getTime() > to.getTime()) throw bad('createdFrom is after createdTo.');
  // History stays in order only if nothing is created in the provider's future.
  if (to.getTime() > now.getTime()) throw bad('Shipments cannot be created after now.');
  const step = n > 1 ? (to.getTime() - from.getTime()) / (n - 1) : 0;
  return (i) => new Date(from.getTime() + Math.floor(i * step));
}

/**
 * Creates shipments as `POST /shipments` would (order number, pending history entry, followed
 * by automatic advance), minus validation and the rate limit, and possibly backdated. Checks
 * everything first: a refused seed creates nothing.
 */
export function seedShipments(core: SandboxCore, options: SeedOptions): SeedResult {
  const now = core.now();
  const accountEmail = options.account ?? core.accounts.list()[0]!.email;
  const account = core.accounts.account(accountEmail);
  if (!account) throw new SandboxError(404, `No sandbox account ${accountEmail}.`);
  const references = referencesOf(options);
  const instantOf = instantsOf(options, references.length, now);
  const taken = references.find((r) => core.shipments.find(account.email, r) !== undefined);
  if (taken !== undefined) {
    throw new SandboxError(
      409,
      `The account already has ${taken}; choose another referencePrefix.`,
    );
  }

  const orderNumbers: string[] = [];
  references.forEach((reference, i) => {
    const at = instantOf(i);
    const { shipment } = core.create(account.email, { ...SEED_REQUEST, reference }, at);
    if (options.status !== undefined && options.status !== 'pending') {
      core.shipments.transition(shipment, options.status, at);
    }
    orderNumbers.push(shipment.orderNumber);
  });
  return {
    account: account.email,
    count: references.length,
    references,
    first_order_number: orderNumbers[0]!,
    last_order_number: orderNumbers.at(-1)!,
  };
}
