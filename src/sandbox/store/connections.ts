import { GraphQLError } from 'graphql';
import type { FakeOrder } from './model.js';

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export interface OrdersArgs extends PageArgs {
  last?: number | null;
  before?: string | null;
  query?: string | null;
  sortKey?: 'CREATED_AT' | 'ID' | 'UPDATED_AT' | null;
  reverse?: boolean | null;
}

/** A connection over a short fixed list (line items, metafields), the position as cursor. */
export function indexConnection<T>(items: T[], { first, after }: PageArgs) {
  const start = after ? indexFromCursor(after) + 1 : 0;
  const page = items.slice(start, first == null ? undefined : start + first);
  return {
    nodes: page,
    edges: page.map((node, i) => ({ node, cursor: encodeCursor({ i: start + i }) })),
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length > 0 ? encodeCursor({ i: start }) : null,
      endCursor: page.length > 0 ? encodeCursor({ i: start + page.length - 1 }) : null,
    },
  };
}

/**
 * Orders filtered by a search query and paged forwards by sort key. The cursor holds the last
 * order's sort value and id, so an order that changes while someone pages moves (as on Shopify)
 * instead of shifting every later position.
 */
export function orderPage(all: FakeOrder[], args: OrdersArgs) {
  if (args.last != null || args.before != null) {
    throw new GraphQLError('The fake store pages orders forwards only (first/after).');
  }
  if (args.first == null) throw new GraphQLError('you must provide one of first or last');
  if (args.first > 250) throw new GraphQLError('The maximum page size is 250.');

  const sortValue = (o: FakeOrder) =>
    args.sortKey === 'UPDATED_AT'
      ? Date.parse(o.updatedAt)
      : args.sortKey === 'CREATED_AT'
        ? Date.parse(o.createdAt)
        : Number(o.id);
  const keyOf = (o: FakeOrder): [number, number] => [sortValue(o), Number(o.id)];
  const direction = args.reverse ? -1 : 1;
  const compare = (a: [number, number], b: [number, number]) =>
    direction * (a[0] - b[0] || a[1] - b[1]);

  let sorted = all
    .filter(searchFilter(args.query ?? ''))
    .sort((a, b) => compare(keyOf(a), keyOf(b)));
  if (args.after) {
    const after = positionFromCursor(args.after);
    sorted = sorted.filter((o) => compare(keyOf(o), after) > 0);
  }
  const page = sorted.slice(0, args.first);
  const cursorOf = (o: FakeOrder) => encodeCursor({ v: sortValue(o), id: Number(o.id) });
  return {
    orders: page,
    cursorOf,
    hasNextPage: sorted.length > page.length,
    hasPreviousPage: Boolean(args.after),
  };
}

/**
 * Shopify search syntax, the part the connector uses: `updated_at:>='…'`, `created_at:<…`, and
 * `name:#1003` or `name:"#1003"` (a value is a name or a quoted string, single or double quotes).
 * Names compare without regard to case, as Shopify's search does.
 */
function searchFilter(query: string): (order: FakeOrder) => boolean {
  const terms = [...query.matchAll(/(\w+):(>=|<=|>|<)?('(?:\\.|[^'])*'|"(?:\\.|[^"])*"|\S+)/g)];
  const tests = terms.flatMap(([, field, op = '=', raw = '']) => {
    const value = unquote(raw);
    if (field === 'name') {
      return [(order: FakeOrder) => order.name.toLowerCase() === value.toLowerCase()];
    }
    if (field !== 'updated_at' && field !== 'created_at') return [];
    const limit = Date.parse(value);
    if (Number.isNaN(limit)) throw new GraphQLError(`Invalid date in search query: ${raw}`);
    return [
      (order: FakeOrder) => {
        const at = Date.parse(field === 'updated_at' ? order.updatedAt : order.createdAt);
        if (op === '>=') return at >= limit;
        if (op === '>') return at > limit;
        if (op === '<=') return at <= limit;
        if (op === '<') return at < limit;
        return at === limit;
      },
    ];
  });
  return (order) => tests.every((test) => test(order));
}

/** A quoted value without its quotes, its backslash escapes undone. */
function unquote(raw: string): string {
  const quoted = /^'(.*)'$|^"(.*)"$/s.exec(raw);
  if (!quoted) return raw;
  return (quoted[1] ?? quoted[2] ?? '').replace(/\\(.)/g, '$1');
}

function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object') return value;
  } catch {}
  throw new GraphQLError(`Invalid cursor: ${cursor}`);
}

function indexFromCursor(cursor: string): number {
  const { i } = decodeCursor(cursor);
  if (typeof i !== 'number') throw new GraphQLError(`Invalid cursor: ${cursor}`);
  return i;
}

function positionFromCursor(cursor: string): [number, number] {
  const { v, id } = decodeCursor(cursor);
  if (typeof v !== 'number' || typeof id !== 'number') {
    throw new GraphQLError(`Invalid cursor: ${cursor}`);
  }
  return [v, id];
}
