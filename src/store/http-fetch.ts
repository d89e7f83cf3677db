import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** Longest silence on a request's socket before it fails (undici's own limits are 300 s). */
export const HTTP_IDLE_TIMEOUT_MS = 60_000;

/**
 * How long a connection may sit unused before it is closed, as undici does: a connection the
 * server or a NAT dropped meanwhile would otherwise fail the next request sent on it.
 */
const KEEP_ALIVE_IDLE_MS = 4_000;

/** Longest wait for a new connection to open, as undici's (10 s). */
export const HTTP_CONNECT_TIMEOUT_MS = 10_000;

const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS }),
};

/** Answers that carry no body, whatever their headers say. */
const NO_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The fetch the Admin API client sends its requests with: node:http(s) over keep-alive agents,
 * the whole answer read into memory, returned as a standard `Response`. Node's built-in fetch
 * (undici) took about a fifth of the workers' CPU for the two small requests an order costs
 * (bench/RESULTS.md, throughput); this does the same work for a fraction of it.
 *
 * `http` and `https` are called through their module objects on every request, so that nock,
 * which replaces `http.request`, still sees each one in the tests.
 */
export const httpFetch = createHttpFetch();

export function createHttpFetch({
  idleTimeoutMs = HTTP_IDLE_TIMEOUT_MS,
  connectTimeoutMs = HTTP_CONNECT_TIMEOUT_MS,
}: {
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
} = {}): typeof fetch {
  return (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const body = init?.body ?? undefined;
    if (
      request ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      (body !== undefined && typeof body !== 'string' && !(body instanceof URLSearchParams))
    ) {
      // Never sent by the Shopify library (a URL string, a string body); kept correct all the same.
      return globalThis.fetch(input, init);
    }
    return send(url, init?.method ?? 'GET', new Headers(init?.headers), body, init?.signal, {
      idleTimeoutMs,
      connectTimeoutMs,
    });
  };
}

function send(
  url: URL,
  method: string,
  headers: Headers,
  body: string | URLSearchParams | undefined,
  signal: AbortSignal | null | undefined,
  { idleTimeoutMs, connectTimeoutMs }: { idleTimeoutMs: number; connectTimeoutMs: number },
): Promise<Response> {
  const payload = body === undefined ? undefined : Buffer.from(String(body));
  if (body instanceof URLSearchParams && !headers.has('content-type')) {
    headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  }
  if (payload) headers.set('content-length', String(payload.length));
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate');
  const outgoing: Record<string, string> = {};
  for (const [name, value] of headers) outgoing[name] = value;

  return new Promise<Response>((resolve, reject) => {
    signal?.throwIfAborted();
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method,
      headers: outgoing,
      agent: agents[url.protocol as 'http:' | 'https:'],
    });
    // As fetch does: an abort rejects with the signal's reason.
    const onAbort = () => {
      reject(signal?.reason);
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // A new socket carries the agent's idle limit until it connects: the connect has its own.
    req.once('socket', (socket) => {
      if (!socket.connecting) return;
      const connectTimedOut = () =>
        req.destroy(new Error(`Could not connect to ${url.host} within ${connectTimeoutMs} ms`));
      // Ahead of the request's own timeout listener, so the first error says what happened.
      socket.prependOnceListener('timeout', connectTimedOut);
      socket.setTimeout(connectTimeoutMs);
      socket.once('connect', () => {
        socket.off('timeout', connectTimedOut);
        socket.setTimeout(idleTimeoutMs);
      });
    });
    req.setTimeout(idleTimeoutMs, () =>
      req.destroy(
        new Error(`No answer from ${url.host} for ${idleTimeoutMs} ms: request abandoned`),
      ),
    );
    // As fetch fails: a TypeError whose cause says what happened. The socket goes with it.
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError('fetch failed', { cause: error }));
      req.destroy();
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const noBody = NO_BODY_STATUSES.has(status) || method === 'HEAD';
      const encoding = noBody ? undefined : res.headers['content-encoding']?.toLowerCase();
      const stream =
        encoding === 'gzip' || encoding === 'x-gzip'
          ? res.pipe(zlib.createGunzip())
          : encoding === 'deflate'
            ? res.pipe(zlib.createInflate())
            : res;
      const chunks: Buffer[] = [];
      // Also a connection closed mid-answer ("aborted", ECONNRESET).
      res.on('error', fail);
      if (stream !== res) stream.on('error', fail);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        try {
          const answered = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!;
            // The body handed on is decoded: its length and encoding no longer apply.
            if (stream !== res && /^content-(encoding|length)$/i.test(name)) continue;
            answered.append(name, res.rawHeaders[i + 1]!);
          }
          resolve(
            new Response(noBody ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers: answered,
            }),
          );
        } catch (error) {
          fail(error); // a status or header fetch cannot hold
        }
      });
    });
    req.end(payload);
  });
}
