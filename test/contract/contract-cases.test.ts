import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentRequest } from '../../src/domain/shipment-contract.js';
import { PartnerClient } from '../../src/partner/client.js';
import { PartnerValidationError } from '../../src/partner/errors.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { createCases, listCases } from './shipment-cases.js';

/** The client goes through its own pre-check; the sandbox is called directly, past it. */
const CLIENT_TOKEN = 'sbx_demo_token';
const DIRECT_TOKEN = 'sbx_other_token';

let sandbox: PartnerSandbox;
let client: PartnerClient;
beforeAll(async () => {
  sandbox = await startPartnerSandbox({ rateLimit: 100_000 });
  client = new PartnerClient({ baseUrl: sandbox.url, token: CLIENT_TOKEN });
});
afterAll(async () => {
  await sandbox.close();
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  body: any;
}

async function direct(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${DIRECT_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const keys = (errors: Record<string, unknown>) => Object.keys(errors).sort();
const clientRequestsSoFar = () => sandbox.requests.filter((r) => r.token === CLIENT_TOKEN).length;

describe.each(createCases)('create: $name', ({ body, errors }) => {
  it(
    errors ? 'is refused by the client before sending' : 'is sent by the client and created',
    async () => {
      const before = clientRequestsSoFar();
      const outcome = await client.createShipment(body as unknown as ShipmentRequest).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      if (!errors) {
        expect(outcome).toEqual({ result: expect.objectContaining({ created: true }) });
        return;
      }
      expect('error' in outcome && outcome.error).toBeInstanceOf(PartnerValidationError);
      const error = (outcome as { error: PartnerValidationError }).error;
      expect(error.status, 'refused locally, not by the sandbox').toBeUndefined();
      expect(keys(error.fieldErrors)).toEqual([...errors].sort());
      expect(clientRequestsSoFar()).toBe(before);
    },
  );

  it(errors ? 'is answered 422 by the sandbox' : 'is answered 201 by the sandbox', async () => {
    const answer = await direct('POST', '/shipments', body);
    if (!errors) {
      expect(answer.status).toBe(201);
      return;
    }
    expect(answer.status).toBe(422);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toEqual(expect.any(String));
    expect(keys(answer.body.errors)).toEqual([...errors].sort());
    for (const messages of Object.values(answer.body.errors) as unknown[][]) {
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(message).toMatch(/\S/);
    }
  });
});

describe.each(listCases)('list: $name', ({ query, meta, errors }) => {
  it(errors ? 'is answered 422 by the sandbox' : 'is answered by the sandbox', async () => {
    const answer = await direct('GET', `/shipments?${new URLSearchParams(query)}`);
    if (!errors) {
      expect(answer.status).toBe(200);
      expect(answer.body.meta).toMatchObject(meta!);
      return;
    }
    expect(answer.status).toBe(422);
    expect(keys(answer.body.errors)).toEqual([...errors].sort());
  });
});

// The client checks no list parameter itself: what it sends must be judged the same way.
describe.each(listCases.filter((c) => c.client !== undefined))(
  'list through the client: $name',
  ({ client: clientQuery, meta, errors }) => {
    it(errors ? 'comes back as a validation error' : 'is answered', async () => {
      const outcome = await client.listShipments(clientQuery).then(
        (page) => ({ page }),
        (error: unknown) => ({ error }),
      );
      if (!errors) {
        expect(outcome).toEqual({
          page: expect.objectContaining({ meta: expect.objectContaining(meta) }),
        });
        return;
      }
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(PartnerValidationError);
      expect(keys((error as PartnerValidationError).fieldErrors)).toEqual([...errors].sort());
    });
  },
);
