import { COUNTRY_CODES } from './country-codes.js';
import type { FieldErrors } from './errors.js';
import { FieldProblems, type Fields, isBlank, isFields } from './field-problems.js';
import { CONTRACT_LIMITS as LIMITS, ORDER_TYPES } from './limits.js';

/**
 * The create request's rules, from the contract's field tables (partner-shipment-api.md,
 * "Resources and their fields" and "Limits"). Plain checks, written apart from the client's zod
 * schema on purpose: the sandbox is the second opinion that catches the client's mistakes.
 */

export interface AcceptedAddress {
  street: string;
  city: string;
  postal_code: string;
  country_code: string;
}

export interface AcceptedParty {
  name: string;
  phone: string;
  email?: string;
  company_name?: string;
  address: AcceptedAddress;
}

export interface AcceptedPackage {
  quantity: number;
  weight_kg: number;
  length_cm: number;
  width_cm: number;
  height_cm: number;
}

/** A create request that passed every rule, holding only the fields the contract names. */
export interface AcceptedShipment {
  reference: string;
  order_type: string;
  content_description: string;
  sender: AcceptedParty;
  receiver: AcceptedParty;
  packages: AcceptedPackage[];
}

export type ShipmentCheck =
  | { ok: true; shipment: AcceptedShipment }
  | { ok: false; errors: FieldErrors };

/** Checks every field and reports every problem at once. */
export function checkShipment(body: Fields): ShipmentCheck {
  const problems = new FieldProblems();
  const orderType = readOrderType(body.order_type, problems);
  const shipment = {
    reference: readReference(body.reference, problems),
    order_type: orderType,
    content_description: readText(body.content_description, 'content_description', problems),
    sender: readParty(body.sender, 'sender', problems),
    receiver: readParty(body.receiver, 'receiver', problems),
    // The document limit applies whatever else is wrong with the request.
    packages: readPackages(body.packages, orderType === 'document', problems),
  };
  if (!problems.empty) return { ok: false, errors: problems.errors };
  return { ok: true, shipment: shipment as AcceptedShipment };
}

function readText(value: unknown, key: string, problems: FieldProblems): string | undefined {
  if (isBlank(value)) {
    problems.add(key, `The ${key} field is required.`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.add(key, `The ${key} must be a string.`);
    return undefined;
  }
  return value;
}

/** Optional fields may be left out; when sent (even as null) they must be usable text. */
function readOptionalText(value: unknown, key: string, problems: FieldProblems) {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    problems.add(key, `The ${key} must be a non-empty string when given.`);
    return undefined;
  }
  return value;
}

function readReference(value: unknown, problems: FieldProblems): string | undefined {
  const reference = readText(value, 'reference', problems);
  // Characters as a person counts them: an emoji is one, not two UTF-16 units.
  if (reference !== undefined && [...reference].length > LIMITS.referenceMaxChars) {
    problems.add(
      'reference',
      `The reference may not be greater than ${LIMITS.referenceMaxChars} characters.`,
    );
    return undefined;
  }
  return reference;
}

function readOrderType(value: unknown, problems: FieldProblems): string | undefined {
  if (isBlank(value)) {
    problems.add('order_type', 'The order_type field is required.');
    return undefined;
  }
  if (typeof value !== 'string' || !ORDER_TYPES.includes(value)) {
    problems.add('order_type', `The order_type must be one of: ${ORDER_TYPES.join(', ')}.`);
    return undefined;
  }
  return value;
}

function readObject(value: unknown, key: string, problems: FieldProblems): Fields | undefined {
  if (value === undefined || value === null) {
    problems.add(key, `The ${key} field is required.`);
    return undefined;
  }
  if (!isFields(value)) {
    problems.add(key, `The ${key} must be an object.`);
    return undefined;
  }
  return value;
}

function readParty(value: unknown, key: string, problems: FieldProblems) {
  const party = readObject(value, key, problems);
  if (!party) return undefined;
  const email = readOptionalText(party.email, `${key}.email`, problems);
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    problems.add(`${key}.email`, `The ${key}.email must be a valid email address.`);
  }
  const companyName = readOptionalText(party.company_name, `${key}.company_name`, problems);
  return {
    name: readText(party.name, `${key}.name`, problems),
    phone: readText(party.phone, `${key}.phone`, problems),
    ...(email === undefined ? {} : { email }),
    ...(companyName === undefined ? {} : { company_name: companyName }),
    address: readAddress(party.address, `${key}.address`, problems),
  };
}

function readAddress(value: unknown, key: string, problems: FieldProblems) {
  const address = readObject(value, key, problems);
  if (!address) return undefined;
  const country = readText(address.country_code, `${key}.country_code`, problems);
  if (country !== undefined && !COUNTRY_CODES.has(country)) {
    problems.add(
      `${key}.country_code`,
      `The ${key}.country_code must be an ISO 3166-1 alpha-2 country code in capitals, such as DK.`,
    );
  }
  return {
    street: readText(address.street, `${key}.street`, problems),
    city: readText(address.city, `${key}.city`, problems),
    postal_code: readText(address.postal_code, `${key}.postal_code`, problems),
    country_code: country,
  };
}

function readPackages(value: unknown, isDocument: boolean, problems: FieldProblems) {
  if (value === undefined || value === null) {
    problems.add('packages', 'The packages field is required.');
    return undefined;
  }
  if (!Array.isArray(value)) {
    problems.add('packages', 'The packages must be a list.');
    return undefined;
  }
  if (value.length === 0) {
    problems.add('packages', 'The packages must have at least 1 item.');
    return undefined;
  }
  return value.map((line, i) => readPackage(line, `packages.${i}`, isDocument, problems));
}

interface Bounds {
  /** Smallest allowed value, inclusive. */
  min?: number;
  /** The value must be above 0 (the contract gives no lower bound; nothing has zero size). */
  positive?: boolean;
  max: number;
  whole?: boolean;
  /** Added to the upper-bound message. */
  maxReason?: string;
}

function readPackage(value: unknown, key: string, isDocument: boolean, problems: FieldProblems) {
  const line = readObject(value, key, problems);
  if (!line) return undefined;
  const weightMax = isDocument ? LIMITS.weightKgMaxDocument : LIMITS.weightKgMaxPackage;
  return {
    quantity: readNumber(line.quantity, `${key}.quantity`, problems, {
      min: LIMITS.quantityMin,
      max: LIMITS.quantityMax,
      whole: true,
    }),
    weight_kg: readNumber(line.weight_kg, `${key}.weight_kg`, problems, {
      min: LIMITS.weightKgMin,
      max: weightMax,
      ...(isDocument ? { maxReason: ' for a document' } : {}),
    }),
    length_cm: readNumber(line.length_cm, `${key}.length_cm`, problems, {
      positive: true,
      max: LIMITS.lengthCmMax,
    }),
    width_cm: readNumber(line.width_cm, `${key}.width_cm`, problems, {
      positive: true,
      max: LIMITS.widthCmMax,
    }),
    height_cm: readNumber(line.height_cm, `${key}.height_cm`, problems, {
      positive: true,
      max: LIMITS.heightCmMax,
    }),
  };
}

function readNumber(
  value: unknown,
  key: string,
  problems: FieldProblems,
  bounds: Bounds,
): number | undefined {
  if (value === undefined || value === null) {
    problems.add(key, `The ${key} field is required.`);
    return undefined;
  }
  // A number in a string ("1.2") is refused: the contract's type is number.
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.add(key, `The ${key} must be a number.`);
    return undefined;
  }
  const broken: string[] = [];
  if (bounds.whole && !Number.isInteger(value)) broken.push('must be a whole number');
  if (bounds.min !== undefined && value < bounds.min) broken.push(`must be at least ${bounds.min}`);
  if (bounds.positive && value <= 0) broken.push('must be greater than 0');
  if (value > bounds.max) {
    broken.push(`may not be greater than ${bounds.max}${bounds.maxReason ?? ''}`);
  }
  for (const rule of broken) problems.add(key, `The ${key} ${rule}.`);
  return broken.length === 0 ? value : undefined;
}
