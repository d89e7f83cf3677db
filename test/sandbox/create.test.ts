import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import {
  COPENHAGEN_TIMESTAMP,
  call,
  control,
  DEMO_EMAIL,
  OTHER_EMAIL,
  OTHER_TOKEN,
  validShipment,
} from './helpers.js';

let sandbox: PartnerSandbox;
beforeEach(async () => {
  sandbox = await startPartnerSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

const TWO_MB = 2 * 1024 * 1024;
const create = (body: unknown, token?: string) =>
  call(sandbox, 'POST', '/shipments', { body, token });
type Body = ReturnType<typeof validShipment>;
const withPackage =
  (patch: Record<string, unknown>, index = 0) =>
  (b: Body) => {
    const packages = [...b.packages, { ...b.packages[0]! }];
    packages[index] = { ...packages[index]!, ...patch };
    return { ...b, packages };
  };

describe('POST /shipments validation', () => {
  const cases: [string, (b: Body) => unknown, string][] = [
    [
      'a missing receiver postal code',
      (b) => ({
        ...b,
        receiver: { ...b.receiver, address: { ...b.receiver.address, postal_code: undefined } },
      }),
      'receiver.address.postal_code',
    ],
    ['a package weight of 31 kg', withPackage({ weight_kg: 31 }), 'packages.0.weight_kg'],
    ['a package weight under 0.1 kg', withPackage({ weight_kg: 0.05 }), 'packages.0.weight_kg'],
    ['a weight sent as a string', withPackage({ weight_kg: '1' }), 'packages.0.weight_kg'],
    [
      'a document of 2.5 kg',
      (b) => ({ ...withPackage({ weight_kg: 2.5 })(b), order_type: 'document' }),
      'packages.0.weight_kg',
    ],
    ['a quantity of 0', withPackage({ quantity: 0 }), 'packages.0.quantity'],
    ['a quantity of 101', withPackage({ quantity: 101 }), 'packages.0.quantity'],
    ['a fractional quantity', withPackage({ quantity: 1.5 }), 'packages.0.quantity'],
    [
      'a length of 121 cm on the second line',
      withPackage({ length_cm: 121 }, 1),
      'packages.1.length_cm',
    ],
    ['a width of 51 cm', withPackage({ width_cm: 51 }, 1), 'packages.1.width_cm'],
    ['a height of 51 cm', withPackage({ height_cm: 51 }, 1), 'packages.1.height_cm'],
    ['a reference of 256 characters', (b) => ({ ...b, reference: 'r'.repeat(256) }), 'reference'],
    [
      'a reference of 256 characters outside the BMP',
      (b) => ({ ...b, reference: '📦'.repeat(256) }),
      'reference',
    ],
    ['a blank reference', (b) => ({ ...b, reference: '   ' }), 'reference'],
    [
      'a lowercase country code',
      (b) => ({
        ...b,
        receiver: { ...b.receiver, address: { ...b.receiver.address, country_code: 'dk' } },
      }),
      'receiver.address.country_code',
    ],
    [
      'a country code no country has (ZZ)',
      (b) => ({
        ...b,
        receiver: { ...b.receiver, address: { ...b.receiver.address, country_code: 'ZZ' } },
      }),
      'receiver.address.country_code',
    ],
    [
      'a withdrawn country code (AN, the Netherlands Antilles)',
      (b) => ({
        ...b,
        sender: { ...b.sender, address: { ...b.sender.address, country_code: 'AN' } },
      }),
      'sender.address.country_code',
    ],
    [
      'a three-letter country code',
      (b) => ({
        ...b,
        sender: { ...b.sender, address: { ...b.sender.address, country_code: 'DNK' } },
      }),
      'sender.address.country_code',
    ],
    ['zero packages', (b) => ({ ...b, packages: [] }), 'packages'],
    ['an unknown order type', (b) => ({ ...b, order_type: 'pallet' }), 'order_type'],
    [
      'a missing content description',
      (b) => ({ ...b, content_description: undefined }),
      'content_description',
    ],
    ['a missing sender name', (b) => ({ ...b, sender: { ...b.sender, name: '' } }), 'sender.name'],
    [
      'a missing receiver phone',
      (b) => ({ ...b, receiver: { ...b.receiver, phone: undefined } }),
      'receiver.phone',
    ],
    [
      'a bad receiver email',
      (b) => ({ ...b, receiver: { ...b.receiver, email: 'karen' } }),
      'receiver.email',
    ],
  ];

  it.each(cases)('answers 422 for %s, keyed by the dotted path', async (_case, breakIt, path) => {
    const answer = await create(breakIt(validShipment('bad-1')));
    expect(answer.status).toBe(422);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toBe('The given data was invalid.');
    expect(Object.keys(answer.body.errors)).toEqual([path]);
    expect(answer.body.errors[path][0]).toEqual(expect.any(String));
    expect(sandbox.shipments()).toEqual([]);
  });

  it('lists every offending field at once', async () => {
    const answer = await create({
      ...withPackage({ weight_kg: 31, quantity: 0 })(validShipment('')),
    });
    expect(Object.keys(answer.body.errors).sort()).toEqual([
      'packages.0.quantity',
      'packages.0.weight_kg',
      'reference',
    ]);
  });

  it('reports the document weight limit even when another field is missing', async () => {
    const answer = await create({
      ...withPackage({ weight_kg: 2.5 })(validShipment('doc-1')),
      order_type: 'document',
      content_description: undefined,
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors).sort()).toEqual([
      'content_description',
      'packages.0.weight_kg',
    ]);
  });

  it('reports a bad field inside a package line beside a missing top-level one', async () => {
    const answer = await create({
      ...withPackage({ height_cm: 51, quantity: undefined }, 1)(validShipment('r-2')),
      sender: undefined,
    });
    expect(Object.keys(answer.body.errors).sort()).toEqual([
      'packages.1.height_cm',
      'packages.1.quantity',
      'sender',
    ]);
  });

  it('accepts every value on the documented bounds', async () => {
    const edges = [
      {
        quantity: 1,
        weight_kg: 0.1,
        length_cm: 1,
        width_cm: 1,
        height_cm: 1,
      },
      { quantity: 100, weight_kg: 30, length_cm: 120, width_cm: 50, height_cm: 50 },
    ];
    expect((await create(validShipment('r'.repeat(255), { packages: edges }))).status).toBe(201);
    // 255 characters, though 510 UTF-16 units: the contract counts characters.
    expect((await create(validShipment('📦'.repeat(255)))).status).toBe(201);
    const documentAtMax = validShipment('doc-2kg', {
      order_type: 'document',
      packages: [{ quantity: 1, weight_kg: 2, length_cm: 30, width_cm: 20, height_cm: 1 }],
    });
    expect((await create(documentAtMax)).status).toBe(201);
  });

  it('answers 400 with an Error body for malformed JSON or a body that is not an object', async () => {
    for (const rawBody of ['{"reference": ', '[1, 2]', '"text"']) {
      const answer = await call(sandbox, 'POST', '/shipments', { rawBody });
      expect(answer.status, rawBody).toBe(400);
      expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    }
  });

  it('treats an empty body as an empty request: 422 for every required field', async () => {
    const answer = await call(sandbox, 'POST', '/shipments', { rawBody: '' });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(
      expect.arrayContaining(['reference', 'order_type', 'sender', 'receiver', 'packages']),
    );
  });

  it('answers 415 with an Error body for a body that is not JSON', async () => {
    const answer = await call(sandbox, 'POST', '/shipments', {
      rawBody: 'reference=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(415);
    expect(answer.body.success).toBe(false);
  });

  it('answers 413 with an Error body above 2 MB and stores nothing', async () => {
    const tooBig = validShipment('big', { content_description: 'x'.repeat(TWO_MB) });
    const answer = await create(tooBig);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ success: false, message: expect.stringContaining('2 MB') });
    expect(sandbox.shipments()).toEqual([]);
  });

  it('accepts a body just under 2 MB', async () => {
    const padding = TWO_MB - JSON.stringify(validShipment('near')).length - 100;
    const answer = await create(
      validShipment('near', { content_description: 'x'.repeat(padding) }),
    );
    expect(answer.status).toBe(201);
  });
});

describe('POST /shipments creation', () => {
  it('creates a pending shipment: 201 with reference, order number and a Copenhagen created_at', async () => {
    const answer = await create(validShipment('1001'));
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      'created_at',
      'order_number',
      'reference',
      'status',
    ]);
    expect(answer.body).toMatchObject({ reference: '1001', status: 'pending' });
    expect(answer.body.order_number).toMatch(/^PS-\d{6}$/);
    expect(answer.body.created_at).toMatch(COPENHAGEN_TIMESTAMP);
    expect(Math.abs(Date.parse(answer.body.created_at) - Date.now())).toBeLessThan(5_000);
  });

  it('gives each shipment its own order number', async () => {
    const a = await create(validShipment('a'));
    const b = await create(validShipment('b'));
    expect(a.body.order_number).not.toBe(b.body.order_number);
  });

  it('answers a repeated reference with 200 and the same shipment, even if the body differs', async () => {
    const first = await create(validShipment('1002'));
    const again = await create(validShipment('1002'));
    const changed = await create(validShipment('1002', { content_description: 'Something else' }));

    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(changed.status).toBe(200);
    expect(changed.body.order_number).toBe(first.body.order_number);
    const stored = sandbox.shipments(DEMO_EMAIL);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.request.content_description).toBe('Cotton t-shirts');
  });

  it('reports the current status on a repeat', async () => {
    await create(validShipment('1003'));
    sandbox.advance('1003');
    const again = await create(validShipment('1003'));
    expect(again.body.status).toBe('processing');
  });

  it('ignores pricing fields anywhere and any account id in the body', async () => {
    const body = {
      ...validShipment('p-1'),
      pricing: { total: 99 },
      total_price: 99,
      unit_price: 9,
      account_id: 'other@sandbox.local',
      sender: { ...validShipment('x').sender, pricing: 'x' },
      packages: [{ ...validShipment('x').packages[0]!, unit_price: 9, total_price: 9 }],
    };
    const answer = await create(body);
    expect(answer.status).toBe(201);
    const tracking = await call(sandbox, 'GET', '/shipments/p-1');
    for (const text of [JSON.stringify(answer.body), JSON.stringify(tracking.body)]) {
      expect(text).not.toMatch(/price|pricing/);
    }
    const [stored] = sandbox.shipments();
    expect(JSON.stringify(stored!.request)).not.toMatch(/price|pricing|account_id/);
    expect(stored!.accountEmail).toBe(DEMO_EMAIL);
  });

  it('stores the shipment before a failNextCreates 500, so the retry gets 200 with the same order number', async () => {
    sandbox.failNextCreates(1);
    const failed = await create(validShipment('2001'));
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ success: false, message: expect.any(String) });
    const [stored] = sandbox.shipments();
    expect(stored?.reference).toBe('2001');

    const retry = await create(validShipment('2001'));
    expect(retry.status).toBe(200);
    expect(retry.body.order_number).toBe(stored!.orderNumber);
    expect(sandbox.shipments()).toHaveLength(1);
    expect((await create(validShipment('2002'))).status).toBe(201);
  });

  it('fails exactly as many creates as asked over the control endpoint', async () => {
    expect((await control(sandbox, 'POST', '/faults', { failNextCreates: 2 })).status).toBe(200);
    expect((await create(validShipment('3001'))).status).toBe(500);
    expect((await create(validShipment('3001'))).status).toBe(500);
    expect((await create(validShipment('3001'))).status).toBe(200);
    // Invalid requests do not use up an injected failure.
    sandbox.failNextCreates(1);
    expect((await create({})).status).toBe(422);
    expect((await create(validShipment('3002'))).status).toBe(500);
  });
});

describe('account isolation', () => {
  it("answers 404 for another account's reference and lets it create the same reference independently", async () => {
    const mine = await create(validShipment('shared-1'));
    expect((await call(sandbox, 'GET', '/shipments/shared-1', { token: OTHER_TOKEN })).status).toBe(
      404,
    );
    const otherList = await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN });
    expect(otherList.body.meta.total).toBe(0);

    const theirs = await create(validShipment('shared-1'), OTHER_TOKEN);
    expect(theirs.status).toBe(201);
    expect(theirs.body.order_number).not.toBe(mine.body.order_number);
    const mineAgain = await call(sandbox, 'GET', '/shipments/shared-1');
    expect(mineAgain.body.order_number).toBe(mine.body.order_number);
    expect(sandbox.shipments(OTHER_EMAIL)).toHaveLength(1);

    // Driving a shared reference needs the account named.
    expect(() => sandbox.advance('shared-1')).toThrow(/Several accounts/);
    expect(sandbox.advance('shared-1', undefined, OTHER_EMAIL).status).toBe('processing');
    expect((await call(sandbox, 'GET', '/shipments/shared-1')).body.status).toBe('pending');
  });

  it('answers 404 with an Error body for a reference nobody created', async () => {
    const answer = await call(sandbox, 'GET', '/shipments/nope');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
  });
});
