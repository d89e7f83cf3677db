import type { Config } from '../../config/index.js';
import { describeContents } from './content-description.js';
import type { StoreLineItem, StoreOrder } from './order.js';
import { packParcels, toPackageLines, type UnitsToPack } from './packages.js';
import { addProblem, mergeWithSchemaErrors, type Problems } from './problems.js';
import { buildReceiver } from './receiver.js';
import {
  shippedItems as itemsOf,
  type ShipmentContents,
  shipmentContents,
} from './shipment-contents.js';
import {
  type FieldErrors,
  fieldErrorsFrom,
  LIMITS,
  type OrderType,
  type PackageLine,
  type ShipmentRequest,
  shipmentRequestSchema,
} from './shipment-contract.js';
import { clean, hasAnyTag, withoutUndefined } from './text.js';
import { describeKilograms, kilogramsToMilligrams, unitWeightMilligrams } from './weight.js';

export type ShipmentSettings = Config['shipment'];

export type MappingResult =
  | { ok: true; request: ShipmentRequest }
  | { ok: false; errors: FieldErrors };

/**
 * A create request, or every reason it cannot be sent. Packages hold the shipment's contents only.
 * Passed through the API-bounds schema, so it is never refused for a field we could have checked.
 */
export function buildShipmentRequest(
  order: StoreOrder,
  settings: ShipmentSettings,
  contents: ShipmentContents = shipmentContents(order, settings),
): MappingResult {
  const problems: Problems = new Map();
  const orderType = hasAnyTag(order.tags, [settings.documentTag]) ? 'document' : 'package';
  const shippedItems = itemsOf(contents);

  const parsed = shipmentRequestSchema.safeParse({
    reference: order.id,
    order_type: orderType,
    content_description: describeContents(shippedItems, orderType, settings.contentDescription),
    sender: withoutUndefined({
      name: settings.sender.name,
      company_name: clean(settings.sender.company),
      phone: settings.sender.phone,
      email: clean(settings.sender.email),
      address: {
        street: settings.sender.street,
        city: settings.sender.city,
        postal_code: settings.sender.postalCode,
        country_code: settings.sender.countryCode,
      },
    }),
    receiver: buildReceiver(order, settings.sendReceiverEmail, problems),
    packages: buildPackages(shippedItems, orderType, settings, problems),
  });
  const schemaErrors = parsed.success ? {} : fieldErrorsFrom(parsed.error);
  const errors = mergeWithSchemaErrors(problems, schemaErrors);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, request: parsed.data };
  return { ok: false, errors };
}

export function formatFieldErrors(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([path, messages]) => {
      const text = messages.join(' ').replace(/\s+/g, ' ').trim();
      return path === '_' ? text : `${path}: ${text}`;
    })
    .join('\n');
}

function buildPackages(
  shippedItems: readonly StoreLineItem[],
  orderType: OrderType,
  settings: ShipmentSettings,
  problems: Problems,
): PackageLine[] {
  if (shippedItems.length === 0) {
    addProblem(problems, 'packages', 'Nothing of the order is left for the provider to ship.');
    return [];
  }

  const maxKg = orderType === 'document' ? LIMITS.weightKg.documentMax : LIMITS.weightKg.max;
  const maxMg = kilogramsToMilligrams(maxKg);
  const units: UnitsToPack[] = [];
  for (const item of shippedItems) {
    const unitWeightMg = unitWeightMilligrams(item.weight, settings.defaultWeightKg);
    if (unitWeightMg > maxMg) {
      const kind = orderType === 'document' ? 'document package' : 'package';
      addProblem(
        problems,
        'packages',
        `Line item '${clean(item.title) ?? 'untitled'}' weighs ${describeKilograms(unitWeightMg)} kg per unit; ` +
          `the most one ${kind} may weigh is ${maxKg} kg.`,
      );
    } else {
      units.push({ unitWeightMg, quantity: item.quantity });
    }
  }
  return toPackageLines(packParcels(units, maxMg), settings.defaultBox);
}
