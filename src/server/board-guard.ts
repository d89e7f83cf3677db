import type { FastifyReply, FastifyRequest } from 'fastify';

/** Against clickjacking the board's Retry and Clean buttons. */
export const FRAME_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Only the host is compared: behind a proxy ending TLS the board sees http. Another site cannot
 * set `X-Forwarded-Host` without a CORS preflight. A client sending neither `Origin` nor
 * `Sec-Fetch-Site` is no browser.
 */
function crossSiteReason(request: FastifyRequest): string | null {
  if (READS.has(request.method)) return null;
  const host = request.headers.host;
  const forwardedHost = String(request.headers['x-forwarded-host'] ?? '')
    .split(',')[0]
    ?.trim();
  const ownHosts = [host, forwardedHost].flatMap((h) => (h ? [h.toLowerCase()] : []));
  const origin = request.headers.origin;
  if (origin !== undefined) {
    // A sandboxed page sends `null`, which parses as no URL.
    const originHost = URL.canParse(origin) ? new URL(origin).host : null;
    if (originHost && ownHosts.includes(originHost)) return null;
    return `its Origin (${origin.slice(0, 100)}) is not this board's (${host ?? 'no Host header'})`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin') return null;
  return `it comes from another site (Sec-Fetch-Site: ${String(site).slice(0, 30)})`;
}

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
