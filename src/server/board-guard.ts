import type { FastifyReply, FastifyRequest } from 'fastify';

/** The board is never shown inside another site's frame (clickjacking its Retry and Clean buttons). */
export const FRAME_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a request that changes something comes from another site, or null when it is the board's
 * own. A browser names the page's origin in `Origin` on every request other than GET; where a
 * browser leaves it out, `Sec-Fetch-Site` says whether the page was this site. Only the host is
 * compared: behind a proxy that ends TLS, the board sees http while the browser says https.
 * The board's host is the `Host` the request was sent to, or the `X-Forwarded-Host` a proxy set
 * (another site's page cannot add that header without a CORS preflight, which the board fails).
 * A client that sends neither (curl, a script) is no browser, so no other site is behind it.
 */
export function crossSiteReason(request: FastifyRequest): string | null {
  if (READS.has(request.method)) return null;
  const host = request.headers.host;
  const forwarded = request.headers['x-forwarded-host'];
  const forwardedHost = (Array.isArray(forwarded) ? forwarded[0] : forwarded)
    ?.split(',')[0]
    ?.trim();
  const ownHosts = [host, forwardedHost].flatMap((h) => (h ? [h.toLowerCase()] : []));
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = origin === 'null' ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost && ownHosts.includes(originHost)) return null;
    return `its Origin (${origin.slice(0, 100)}) is not this board's (${host ?? 'no Host header'})`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin') return null;
  return `it comes from another site (Sec-Fetch-Site: ${String(site).slice(0, 30)})`;
}

/** onRequest hook: refuses a cross-site change with 403 and says why. */
export async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const reason = crossSiteReason(request);
  if (!reason) return;
  request.log.warn(
    { method: request.method, url: request.url },
    'cross-site board request refused',
  );
  await reply
    .code(403)
    .send({ error: `Bull Board refuses this change: ${reason}. Use the board's own page.` });
}
