import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** Longest silence on a request's socket before it fails (undici's own limits are 300 s). */
export const HTTP_IDLE_TIMEOUT_MS = 60_000;

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

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

export function createHttpFetch(idleTimeoutMs = HTTP_IDLE_TIMEOUT_MS): typeof fetch {
  return (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const body = init?.body ?? undefined;
    if (
      request ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      (body !== undefined &&
        body !== null &&
        typeof body !== 'string' &&
        !(body instanceof URLSearchParams))
    ) {
      // Never sent by the Shopify library (a URL string, a string body); kept correct all the same.
      return globalThis.fetch(input, init);
    }
    return send(
      url,
      init?.method ?? 'GET',
      new Headers(init?.headers),
      body,
      init?.signal,
      idleTimeoutMs,
    );
  };
}

function send(
  url: URL,
  method: string,
  headers: Headers,
  body: string | URLSearchParams | null | undefined,
  signal: AbortSignal | null | undefined,
  idleTimeoutMs: number,
): Promise<Response> {
  const payload = body === null || body === undefined ? undefined : Buffer.from(String(body));
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
    const onAbort = () => req.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.setTimeout(idleTimeoutMs, () =>
      req.destroy(
        new Error(`No answer from ${url.host} for ${idleTimeoutMs} ms: request abandoned`),
      ),
    );
    // As fetch fails: a TypeError whose cause says what happened.
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError('fetch failed', { cause: error }));
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const encoding = res.headers['content-encoding'];
      const stream =
        encoding === 'gzip' || encoding === 'x-gzip'
          ? res.pipe(zlib.createGunzip())
          : encoding === 'deflate'
            ? res.pipe(zlib.createInflate())
            : res;
      res.on('error', fail);
      res.on('aborted', () => fail(new Error(`${url.host} closed the connection mid-answer`)));
      if (stream !== res) stream.on('error', fail);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        const answered = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          // The body handed on is decoded: its length and encoding no longer apply.
          if (stream !== res && /^content-(encoding|length)$/i.test(name)) continue;
          answered.append(name, res.rawHeaders[i + 1]!);
        }
        const status = res.statusCode ?? 0;
        const noBody = status === 204 || status === 304 || method === 'HEAD';
        try {
          resolve(
            new Response(noBody ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers: answered,
            }),
          );
        } catch (error) {
          fail(error); // a status fetch cannot hold (below 200, above 599)
        }
      });
    });
    req.end(payload);
  });
}
