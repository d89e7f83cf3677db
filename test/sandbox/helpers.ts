import type { AcceptedShipment, PartnerSandbox } from '../../src/sandbox/partner/index.js';

export const DEMO_TOKEN = 'sbx_demo_token';
export const OTHER_TOKEN = 'sbx_other_token';
export const DEMO_EMAIL = 'demo@sandbox.local';
export const OTHER_EMAIL = 'other@sandbox.local';

/** A create request that passes every rule; tests break one field at a time. */
export function validShipment(reference: string, overrides: Partial<AcceptedShipment> = {}) {
  return {
    reference,
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
      email: 'karen@example.dk',
      address: { street: 'Nørregade 7', city: 'Aarhus', postal_code: '8000', country_code: 'DK' },
    },
    packages: [{ quantity: 1, weight_kg: 1.2, length_cm: 30, width_cm: 20, height_cm: 10 }],
    ...overrides,
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  body: any;
}

/** Real HTTP against the sandbox; the body is parsed as JSON when there is one. */
export async function call(
  sandbox: PartnerSandbox,
  method: string,
  path: string,
  options: {
    token?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? DEMO_TOKEN : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = options.rawBody ?? JSON.stringify(options.body);
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

export async function control(
  sandbox: PartnerSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${sandbox.controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

/** Europe/Copenhagen local time with its offset, to the second. */
export const COPENHAGEN_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
