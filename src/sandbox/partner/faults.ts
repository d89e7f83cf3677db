/** Misbehaviour switched on by tests and demos to exercise a client's error handling. */
/**
 * schema: wrong types for every documented field; invalid-json: a fixed broken body; truncated:
 * the real answer cut in half; html: a proxy's HTML error page (HTTP 502); empty: HTTP 200 with
 * no body; extra-fields: the real answer with undocumented fields added at every level;
 * odd-timestamps: the real answer with each timestamp spelled another valid ISO 8601 way.
 */
export type MalformedBodyKind =
  | 'schema'
  | 'invalid-json'
  | 'truncated'
  | 'html'
  | 'empty'
  | 'extra-fields'
  | 'odd-timestamps';

export const MALFORMED_BODY_KINDS: readonly MalformedBodyKind[] = [
  'schema',
  'invalid-json',
  'truncated',
  'html',
  'empty',
  'extra-fields',
  'odd-timestamps',
];

/** Which answers a malformed-body fault applies to: default the next one, whatever it is. */
export interface MalformedBodyOptions {
  /** How many answers (default 1). */
  count?: number;
  /** Only requests with this method, e.g. POST. */
  method?: string;
  /** Only requests whose path (without the query) ends so, e.g. /shipments. */
  pathEndsWith?: string;
}

export class Faults {
  /** Creates still to answer 500 after storing the shipment. */
  failCreates = 0;
  latencyMs = 0;
  malformedNext: MalformedBodyKind | null = null;
  private malformedLeft = 0;
  private malformedMatch: Omit<MalformedBodyOptions, 'count'> = {};

  setFailCreates(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError('failNextCreates needs an integer ≥ 0');
    this.failCreates = n;
  }

  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('latency must be ≥ 0 ms');
    this.latencyMs = ms;
  }

  /** True (and one fewer to go) when this create should fail. */
  takeCreateFailure(): boolean {
    if (this.failCreates === 0) return false;
    this.failCreates -= 1;
    return true;
  }

  get malformedPending(): number {
    return this.malformedNext ? this.malformedLeft : 0;
  }

  setMalformed(kind: MalformedBodyKind | null, options: MalformedBodyOptions = {}): void {
    const { count = 1, ...match } = options;
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count needs an integer ≥ 1');
    this.malformedNext = kind;
    this.malformedLeft = kind ? count : 0;
    this.malformedMatch = match;
  }

  /** The malformation for this answer, if one is planned and it matches. */
  takeMalformed(method = '', path = ''): MalformedBodyKind | null {
    const kind = this.malformedNext;
    if (!kind) return null;
    const { method: onlyMethod, pathEndsWith } = this.malformedMatch;
    if (onlyMethod && onlyMethod.toUpperCase() !== method.toUpperCase()) return null;
    if (pathEndsWith && !path.endsWith(pathEndsWith)) return null;
    this.malformedLeft -= 1;
    if (this.malformedLeft <= 0) this.malformedNext = null;
    return kind;
  }
}

/** Bodies no response schema accepts: wrong types for every documented field. */
export const MALFORMED_BODIES: Record<'schema' | 'invalid-json', string> = {
  schema: JSON.stringify({
    success: 'perhaps',
    reference: 42,
    order_number: null,
    status: 7,
    token: false,
    data: 'not a list',
  }),
  'invalid-json': '{"reference": "truncated',
};

const HTML_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>The upstream server did not answer.</p></body></html>';

/** The answer to send instead of `payload` (the real body, JSON text): status, type and body. */
export function malformAnswer(
  kind: MalformedBodyKind,
  payload: string,
  status: number,
): { status: number; contentType: string; body: string } {
  const json = 'application/json; charset=utf-8';
  switch (kind) {
    case 'schema':
    case 'invalid-json':
      return { status, contentType: json, body: MALFORMED_BODIES[kind] };
    case 'truncated':
      return { status, contentType: json, body: payload.slice(0, Math.floor(payload.length / 2)) };
    case 'html':
      return { status: 502, contentType: 'text/html; charset=utf-8', body: HTML_ERROR_PAGE };
    case 'empty':
      return { status: 200, contentType: json, body: '' };
    case 'extra-fields':
      return { status, contentType: json, body: JSON.stringify(rewrite(payload, withExtraFields)) };
    case 'odd-timestamps':
      return { status, contentType: json, body: JSON.stringify(rewrite(payload, oddTimestamp)) };
  }
}

function rewrite(payload: string, change: (value: unknown) => unknown): unknown {
  // Children first, so that what `change` adds is not changed again.
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return change(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)])));
    }
    return change(value);
  };
  return walk(JSON.parse(payload));
}

function withExtraFields(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return {
    ...value,
    _links: { self: { href: '/api/v1/somewhere' } },
    x_trace_id: 'b4f1c0de',
    beta_feature_flags: [1, 'two', null],
  };
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
let oddSpelling = 0;

/** The same instant spelled another valid ISO 8601 way, in turn. */
function oddTimestamp(value: unknown): unknown {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const utc = at.toISOString(); // 2026-11-22T20:47:09.123Z
  const [date, time] = [utc.slice(0, 10), utc.slice(11, 19)];
  const ms = utc.slice(20, 23);
  // Nepal's +05:45, as a shift of the wall clock.
  const nepal = new Date(at.getTime() + (5 * 60 + 45) * 60_000).toISOString();
  const spellings = [
    `${date}t${time}.${ms}000000z`,
    `${date.replaceAll('-', '')}T${time.replaceAll(':', '')},${ms}+0000`,
    `${date} ${time}.${ms}+00`,
    `${nepal.slice(0, 19)}.${ms}+05:45`,
    `${date}T${time}.${ms}-00:00`,
  ];
  oddSpelling = (oddSpelling + 1) % spellings.length;
  return spellings[oddSpelling];
}
