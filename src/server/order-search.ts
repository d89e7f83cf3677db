import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { parseOrderId } from '../domain/order.js';
import { messageOf } from '../error-message.js';
import { listStaffActions, type StaffAction } from '../records/audit-trail.js';
import { shopifyOrderUrl } from './board-jobs.js';

export const ORDER_SEARCH_PATH = '/admin/orders';

export interface FoundJob {
  queue: string;
  id: string;
  name: string;
  state: string;
  attemptsMade: number;
  failedReason?: string;
}

export interface OrderLookup {
  /** Asked of Shopify; null when the store has none. */
  findByName(name: string): Promise<{ id: string; name: string } | null>;
  jobsOf(orderId: string): Promise<FoundJob[]>;
}

export interface OrderSearchDeps {
  lookup: OrderLookup;
  shop: string;
  boardPath: string;
  /** Fail-fast. */
  redis: Redis;
  prefix: string;
}

type Found =
  | { kind: 'empty' }
  | { kind: 'invalid' | 'unknown-name'; query: string }
  | { kind: 'lookup-failed'; query: string; reason: string }
  | { kind: 'order'; query: string; orderId: string; name?: string; jobs: FoundJob[] };

/** Registered in the board's scope: the same login guards it. */
export async function orderSearchRoutes(app: FastifyInstance, deps: OrderSearchDeps) {
  app.get<{ Querystring: { order?: string } }>(ORDER_SEARCH_PATH, async (request, reply) => {
    const found = await search(String(request.query.order ?? ''), deps.lookup);
    const actions =
      found.kind === 'order'
        ? await listStaffActions(deps.redis, deps.prefix, { orderId: found.orderId, limit: 20 })
        : [];
    return reply
      .code(found.kind === 'invalid' ? 400 : 200)
      .header('content-type', 'text/html; charset=utf-8')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      )
      .send(page(found, actions, deps));
  });
}

async function search(raw: string, lookup: OrderLookup): Promise<Found> {
  const query = raw.trim().slice(0, 100);
  if (!query) return { kind: 'empty' };
  const isGid = query.startsWith('gid://');
  const id = isGid || /^\d{6,20}$/.test(query) ? parseOrderId(query) : null;
  if (id) {
    const jobs = await lookup.jobsOf(id);
    // Long digits with no job may still be a name.
    if (jobs.length > 0 || isGid) return { kind: 'order', query, orderId: id, jobs };
  }
  if (!/^#?[\p{L}\p{N}_.-]{1,40}$/u.test(query)) return { kind: 'invalid', query };
  let order: { id: string; name: string } | null;
  try {
    order = await lookup.findByName(withHash(query));
  } catch (error) {
    return { kind: 'lookup-failed', query, reason: messageOf(error) };
  }
  if (!order)
    return id ? { kind: 'order', query, orderId: id, jobs: [] } : { kind: 'unknown-name', query };
  const jobs = await lookup.jobsOf(order.id);
  return { kind: 'order', query, orderId: order.id, name: order.name, jobs };
}

function page(found: Found, actions: StaffAction[], deps: OrderSearchDeps): string {
  const query = found.kind === 'empty' ? '' : found.query;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Find an order · Shipment connector</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2328}
table{border-collapse:collapse;margin-top:1rem}th,td{text-align:left;padding:.35rem .8rem;border-bottom:1px solid #d0d7de;vertical-align:top}
input{font-size:1rem;padding:.3rem;width:16rem}button{font-size:1rem;padding:.3rem .8rem}
.state-failed{color:#cf222e}.state-completed{color:#1a7f37}.note{color:#59636e}
</style></head><body>
<p><a href="${esc(deps.boardPath)}">← Bull Board</a></p>
<h1>Find an order</h1>
<form method="get" action="${ORDER_SEARCH_PATH}" role="search">
<label>Order name or id <input name="order" value="${esc(query)}" placeholder="#1003" autofocus></label>
<button type="submit">Find</button>
</form>
${body(found, actions, deps)}
</body></html>`;
}

function body(found: Found, actions: StaffAction[], deps: OrderSearchDeps): string {
  switch (found.kind) {
    case 'empty':
      return '<p class="note">An order name as the customer knows it (#1003 or 1003), or its id.</p>';
    case 'invalid':
      return `<p role="alert">Not an order name or id: ${esc(found.query)}</p>`;
    case 'unknown-name':
      return `<p role="alert">The store has no order named ${esc(withHash(found.query))}.</p>`;
    case 'lookup-failed':
      return `<p role="alert">Could not ask Shopify for order ${esc(withHash(found.query))}: ${esc(found.reason)}. Search by the order's id instead.</p>`;
    case 'order':
      return orderSection(found, actions, deps);
  }
}

function orderSection(
  found: Extract<Found, { kind: 'order' }>,
  actions: StaffAction[],
  deps: OrderSearchDeps,
): string {
  const title = found.name ? `${found.name} (${found.orderId})` : found.orderId;
  const shopify = `<a href="${esc(shopifyOrderUrl(deps.shop, found.orderId))}" target="_blank" rel="noopener noreferrer">Open in the Shopify admin</a>`;
  const jobs =
    found.jobs.length === 0
      ? '<p>The connector has no job for this order (none yet, or removed after its retention).</p>'
      : `<table><thead><tr><th>Job</th><th>Queue</th><th>State</th><th>Attempts</th><th>Reason</th></tr></thead><tbody>
${found.jobs.map((job) => jobRow(job, deps.boardPath)).join('\n')}
</tbody></table>`;
  const trail =
    actions.length === 0
      ? ''
      : `<h2>Staff actions</h2><table><thead><tr><th>When (UTC)</th><th>Who</th><th>What</th></tr></thead><tbody>
${actions.map(actionRow).join('\n')}
</tbody></table>`;
  const story = `<p class="note">The order's whole story: <code>connector status "${esc(found.name ?? found.orderId)}"</code>; who changed what: <code>connector audit --order ${esc(found.orderId)}</code></p>`;
  return `<h2>Order ${esc(title)}</h2><p>${shopify}</p>${jobs}${story}${trail}`;
}

function jobRow(job: FoundJob, boardPath: string): string {
  const href = `${boardPath}/queue/${encodeURIComponent(job.queue)}/${encodeURIComponent(job.id)}`;
  const reason = job.failedReason ? (job.failedReason.split('\n')[0] ?? '') : '';
  return `<tr><td><a href="${esc(href)}">${esc(job.name)}</a><br><span class="note">${esc(job.id)}</span></td><td>${esc(job.queue)}</td><td class="state-${esc(job.state)}">${esc(job.state)}</td><td>${job.attemptsMade}</td><td>${esc(reason)}</td></tr>`;
}

function actionRow(a: StaffAction): string {
  const what = `${a.action}${a.queue ? ` in ${a.queue}` : ''}${a.count > 1 ? `, ${a.count} jobs` : ''}`;
  return `<tr><td>${esc(new Date(a.at).toISOString())}</td><td>${esc(a.who)} (${a.via})</td><td>${esc(what)}</td></tr>`;
}

function withHash(name: string): string {
  return name.startsWith('#') ? name : `#${name}`;
}

function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
