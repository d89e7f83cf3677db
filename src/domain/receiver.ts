import type { StoreOrder } from './order.js';
import { addProblem, type Problems } from './problems.js';
import type { ShipmentRequest } from './shipment-contract.js';
import { clean, withoutUndefined } from './text.js';

type Party = ShipmentRequest['receiver'];
/** Receiver as far as the order allows; gaps stay undefined and are reported in `problems`. */
export type ReceiverDraft = Partial<
  Omit<Party, 'address'> & { address: Partial<Party['address']> }
>;

const MISSING = {
  address: 'The order has no shipping address.',
  name: "The order's shipping address has no name or company.",
  phone: 'Neither the shipping address nor the order has a phone number.',
  street: "The order's shipping address has no street.",
  city: "The order's shipping address has no city.",
  postal_code: "The order's shipping address has no postal code.",
  country_code: "The order's shipping address has no country.",
} as const;

export function buildReceiver(
  order: StoreOrder,
  includeEmail: boolean,
  problems: Problems,
): ReceiverDraft {
  const shipTo = order.shippingAddress;
  const phone = clean(shipTo?.phone) ?? clean(order.phone);
  if (!phone) addProblem(problems, 'receiver.phone', MISSING.phone);
  const email = includeEmail ? clean(order.email) : undefined;

  if (!shipTo) {
    addProblem(problems, 'receiver.address', MISSING.address);
    // No address explains the missing name: the schema's message for it stays hidden.
    if (!problems.has('receiver.name')) problems.set('receiver.name', []);
    return withoutUndefined({ phone, email });
  }

  const company = clean(shipTo.company);
  const name = clean(shipTo.name) ?? company;
  if (!name) addProblem(problems, 'receiver.name', MISSING.name);

  const address = {
    street:
      [clean(shipTo.address1), clean(shipTo.address2)].filter(Boolean).join(', ') || undefined,
    city: clean(shipTo.city),
    postal_code: clean(shipTo.zip),
    country_code: clean(shipTo.countryCode)?.toUpperCase(),
  };
  for (const field of ['street', 'city', 'postal_code', 'country_code'] as const) {
    if (!address[field]) addProblem(problems, `receiver.address.${field}`, MISSING[field]);
  }

  return withoutUndefined({ name, phone, email, company_name: company, address });
}
