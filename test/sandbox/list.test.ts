import { afterEach, describe, expect, it } from 'vitest';
import { parseCreatedAfter } from '../../src/sandbox/partner/created-after.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { call, OTHER_TOKEN, validShipment } from './helpers.js';

let sandbox: PartnerSandbox;
let now = new Date();
afterEach(async () => {
  await sandbox?.close();
});

/** Creates shipments at the given instants, in that order. */
async function seed(at: Record<string, string>) {
  sandbox = await startPartnerSandbox({ clock: () => now });
  for (const [reference, instant] of Object.entries(at)) {
    now = new Date(instant);
    expect(
      (await call(sandbox, 'POST', '/shipments', { body: validShipment(reference) })).status,
    ).toBe(201);
  }
}
const list = (query = '', token?: string) => call(sandbox, 'GET', `/shipments${query}`, { token });
const references = (answer: { body: { data: { reference: string }[] } }) =>
  answer.body.data.map((item) => item.reference);

describe('GET /shipments', () => {
  it('lists the calling account newest first, with list items and meta', async () => {
    await seed({
      a: '2026-11-20T09:00:00Z',
      c: '2026-11-22T09:00:00Z',
      b: '2026-11-21T09:00:00Z',
    });
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(references(answer)).toEqual(['c', 'b', 'a']);
    expect(answer.body.meta).toEqual({ page: 1, per_page: 50, total: 3 });
    expect(answer.body.data[0]).toEqual({
      reference: 'c',
      order_number: 'PS-000002',
      status: 'pending',
      updated_at: '2026-11-22T10:00:00+01:00',
    });
    expect((await list('', OTHER_TOKEN)).body).toEqual({
      data: [],
      meta: { page: 1, per_page: 50, total: 0 },
    });
  });

  it('puts the later of two shipments created in the same second first', async () => {
    await seed({ first: '2026-11-22T09:00:00Z', second: '2026-11-22T09:00:00Z' });
    expect(references(await list())).toEqual(['second', 'first']);
  });

  it('pages with per_page and page, total counting every match', async () => {
    const at: Record<string, string> = {};
    for (let i = 1; i <= 5; i++) at[`s${i}`] = `2026-11-2${i}T09:00:00Z`;
    await seed(at);
    const page2 = await list('?per_page=2&page=2');
    expect(references(page2)).toEqual(['s3', 's2']);
    expect(page2.body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    expect(references(await list('?per_page=2&page=3'))).toEqual(['s1']);
    const beyond = await list('?per_page=2&page=4');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ data: [], meta: { page: 4, per_page: 2, total: 5 } });
    expect((await list('?per_page=200')).body.meta.per_page).toBe(200);
  });

  it('returns at most 50 by default', async () => {
    sandbox = await startPartnerSandbox();
    for (let i = 0; i < 51; i++) {
      await call(sandbox, 'POST', '/shipments', { body: validShipment(`bulk-${i}`) });
    }
    const answer = await list();
    expect(answer.body.data).toHaveLength(50);
    expect(answer.body.meta.total).toBe(51);
    expect(answer.body.data[0].reference).toBe('bulk-50');
  });

  it('filters by one status, total counting only matches', async () => {
    await seed({
      p: '2026-11-20T09:00:00Z',
      s1: '2026-11-21T09:00:00Z',
      s2: '2026-11-22T09:00:00Z',
    });
    sandbox.advance('s1', 'shipped');
    sandbox.advance('s2', 'shipped');
    const shipped = await list('?status=shipped');
    expect(references(shipped)).toEqual(['s2', 's1']);
    expect(shipped.body.meta.total).toBe(2);
    expect(references(await list('?status=pending'))).toEqual(['p']);
    expect((await list('?status=cancelled')).body.meta.total).toBe(0);
  });

  describe('shipments created between two page requests', () => {
    const pageOf = async (page: number, extra = '') =>
      references(await list(`?per_page=2&page=${page}${extra}`));
    const create = async (reference: string) =>
      expect(
        (await call(sandbox, 'POST', '/shipments', { body: validShipment(reference) })).status,
      ).toBe(201);

    it('puts new ones on page 1, so later pages shift and repeat items but skip none', async () => {
      // All in one second: creation order alone decides, the hardest case for "newest first".
      await seed({
        s1: '2026-11-22T09:00:00Z',
        s2: '2026-11-22T09:00:00Z',
        s3: '2026-11-22T09:00:00Z',
        s4: '2026-11-22T09:00:00Z',
        s5: '2026-11-22T09:00:00Z',
      });
      expect(await pageOf(1)).toEqual(['s5', 's4']);
      await create('n1');
      await create('n2');
      expect(await pageOf(2)).toEqual(['s5', 's4']);
      expect(await pageOf(3)).toEqual(['s3', 's2']);
      const last = await list('?per_page=2&page=4');
      expect(references(last)).toEqual(['s1']);
      expect(last.body.meta.total).toBe(7);
      expect(await pageOf(1)).toEqual(['n2', 'n1']);
    });

    it('lets a reader that pages to the end see every shipment that existed when it began', async () => {
      const at: Record<string, string> = {};
      for (let i = 1; i <= 9; i++) at[`old-${i}`] = `2026-11-2${i % 3}T09:0${i}:00Z`;
      await seed(at);
      now = new Date('2026-11-23T09:00:00Z');
      const seen = new Set<string>();
      for (let page = 1; page <= 20; page++) {
        // One new shipment before every request, and a status change that must not reorder.
        await create(`new-${page}`);
        if (page === 2) sandbox.advance('old-1', 'shipped');
        const items = await pageOf(page, '&created_after=2026-11-20');
        if (items.length === 0) break;
        for (const reference of items) seen.add(reference);
      }
      for (const reference of Object.keys(at)) expect(seen, reference).toContain(reference);
    });

    it('orders by created_at, not updated_at: a status change moves nothing', async () => {
      await seed({ a: '2026-11-20T09:00:00Z', b: '2026-11-21T09:00:00Z' });
      now = new Date('2026-11-25T09:00:00Z');
      sandbox.advance('a', 'shipped');
      expect(references(await list())).toEqual(['b', 'a']);
    });

    it('with a status filter, one that leaves the filter between pages shifts later pages forward', async () => {
      // Not a creation, so the contract's promise does not cover it: a reader filtering by
      // status can miss a shipment. Shown here so nobody relies on it.
      await seed({
        p1: '2026-11-20T09:00:00Z',
        p2: '2026-11-21T09:00:00Z',
        p3: '2026-11-22T09:00:00Z',
        p4: '2026-11-23T09:00:00Z',
      });
      expect(await pageOf(1, '&status=pending')).toEqual(['p4', 'p3']);
      sandbox.advance('p4');
      expect(await pageOf(2, '&status=pending')).toEqual(['p1']);
    });
  });

  describe('created_after', () => {
    const instants = {
      early: '2026-11-22T10:00:00Z', // 11:00+01:00
      noon: '2026-11-22T12:00:00Z', // 13:00+01:00
      lateUtc: '2026-11-22T23:30:00Z', // 2026-11-23T00:30+01:00: already the 23rd in Copenhagen
      next: '2026-11-23T09:00:00Z',
    };

    it('compares a date-time with an offset as an instant, whatever the offset', async () => {
      await seed(instants);
      for (const sameInstant of [
        '2026-11-22T12:30:00%2B01:00',
        '2026-11-22T11:30:00Z',
        '2026-11-22T06:30:00-05:00',
        '2026-11-22T17:00:00%2B0530',
      ]) {
        expect(references(await list(`?created_after=${sameInstant}`)), sameInstant).toEqual([
          'next',
          'lateUtc',
          'noon',
        ]);
      }
    });

    it('includes a shipment created exactly at the given instant', async () => {
      await seed(instants);
      expect(references(await list('?created_after=2026-11-22T13:00:00%2B01:00'))).toEqual([
        'next',
        'lateUtc',
        'noon',
      ]);
      expect(references(await list('?created_after=2026-11-22T13:00:01%2B01:00'))).toEqual([
        'next',
        'lateUtc',
      ]);
    });

    it('reads a date as the start of that day in Copenhagen, and a bare date-time as Copenhagen time', async () => {
      await seed(instants);
      expect(references(await list('?created_after=2026-11-23'))).toEqual(['next', 'lateUtc']);
      expect(references(await list('?created_after=2026-11-22'))).toHaveLength(4);
      expect(references(await list('?created_after=2026-11-22T13:00:00'))).toEqual([
        'next',
        'lateUtc',
        'noon',
      ]);
    });

    it('combines with status and paging', async () => {
      await seed(instants);
      sandbox.advance('noon', 'processing');
      sandbox.advance('next', 'processing');
      const answer = await list('?created_after=2026-11-22T12:00:00Z&status=processing&per_page=1');
      expect(references(answer)).toEqual(['next']);
      expect(answer.body.meta).toEqual({ page: 1, per_page: 1, total: 2 });
    });
  });

  it.each([
    ['status=lost', 'status'],
    ['status=', 'status'],
    ['status=pending&status=shipped', 'status'],
    ['created_after=yesterday', 'created_after'],
    ['created_after=2026-13-01', 'created_after'],
    ['created_after=2026-02-30', 'created_after'],
    ['created_after=2026-11-22T25:00:00Z', 'created_after'],
    ['created_after=2026-11-22T10:00:00+01:00', 'created_after'], // "+" unencoded arrives as a space
    ['per_page=0', 'per_page'],
    ['per_page=201', 'per_page'],
    ['per_page=abc', 'per_page'],
    ['per_page=1.5', 'per_page'],
    ['per_page=', 'per_page'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=two', 'page'],
    ['page=2.0', 'page'],
  ])('answers 422 keyed by the parameter for %s', async (query, parameter) => {
    sandbox = await startPartnerSandbox();
    const answer = await list(`?${query}`);
    expect(answer.status).toBe(422);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toBe('The given data was invalid.');
    expect(Object.keys(answer.body.errors)).toEqual([parameter]);
  });

  it('reports every bad parameter at once', async () => {
    sandbox = await startPartnerSandbox();
    const answer = await list('?status=x&created_after=x&per_page=x&page=x');
    expect(Object.keys(answer.body.errors).sort()).toEqual([
      'created_after',
      'page',
      'per_page',
      'status',
    ]);
  });
});

describe('parseCreatedAfter', () => {
  it.each([
    ['2026-11-22', '2026-11-21T23:00:00.000Z'],
    ['2026-07-01', '2026-06-30T22:00:00.000Z'],
    ['2026-07-01T12:00', '2026-07-01T10:00:00.000Z'],
    ['2026-07-01T12:00:00.250+02:00', '2026-07-01T10:00:00.250Z'],
    ['2026-07-01T12:00:00z', '2026-07-01T12:00:00.000Z'],
    ['2026-07-01T12:00:00-0130', '2026-07-01T13:30:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseCreatedAfter(input)?.toISOString()).toBe(expected);
  });

  it.each([
    '2026-7-1',
    '2026-11-22T10',
    '2026-11-22 10:00:00',
    '2026-11-22T10:00:00+25:00',
    '2026-02-29',
  ])('rejects %s', (input) => {
    expect(parseCreatedAfter(input)).toBeUndefined();
  });
});
