import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch, httpFetch } from '../../src/store/http-fetch.js';

let server: Server | undefined;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

describe('httpFetch (the Admin API client fetch over node:http)', () => {
  it('sends method, headers and body, and answers as fetch does', async () => {
    let seen: {
      method?: string;
      url?: string;
      headers?: IncomingMessage['headers'];
      body?: string;
    } = {};
    const url = await serve(async (req, res) => {
      seen = { method: req.method!, url: req.url!, headers: req.headers, body: await bodyOf(req) };
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r-1' });
      res.end(JSON.stringify({ data: { ok: true, name: 'Café #1' } }));
    });

    const answer = await httpFetch(`${url}/admin/api/2026-10/graphql.json?x=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'shpat_test' },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });

    expect(seen).toMatchObject({
      method: 'POST',
      url: '/admin/api/2026-10/graphql.json?x=1',
      body: '{"query":"{ shop { name } }"}',
    });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'x-shopify-access-token': 'shpat_test',
      'content-length': String(Buffer.byteLength('{"query":"{ shop { name } }"}')),
    });
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made');
    expect(answer.ok).toBe(true);
    expect(answer.headers.get('x-request-id')).toBe('r-1');
    expect(await answer.json()).toEqual({ data: { ok: true, name: 'Café #1' } });
  });

  it('decodes a gzip answer and drops the headers that described the encoded body', async () => {
    const url = await serve((_req, res) => {
      const body = gzipSync(JSON.stringify({ data: { n: 42 } }));
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
    });

    const answer = await httpFetch(url);

    expect(await answer.json()).toEqual({ data: { n: 42 } });
    expect(answer.headers.get('content-encoding')).toBeNull();
  });

  it('sends a form body with its content type', async () => {
    let body = '';
    let type: string | undefined;
    const url = await serve(async (req, res) => {
      type = req.headers['content-type'];
      body = await bodyOf(req);
      res.end('{}');
    });

    await httpFetch(url, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'a b' }),
    });

    expect(type).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(body).toBe('grant_type=client_credentials&client_id=a+b');
  });

  it('passes 4xx and 5xx answers on as answers, with their bodies', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '2' });
      res.end('try later');
    });

    const answer = await httpFetch(url);

    expect(answer.ok).toBe(false);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(await answer.text()).toBe('try later');
  });

  it('fails as fetch does when nothing listens, with the cause', async () => {
    const url = await serve(() => {});
    server!.close();
    await new Promise((resolve) => server!.once('close', resolve));

    const failure = await httpFetch(url).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('fails when the connection drops mid-answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"data":');
      setImmediate(() => res.socket?.destroy());
    });

    await expect(httpFetch(url)).rejects.toThrow('fetch failed');
  });

  it('gives up on a server that goes silent, after the idle timeout', async () => {
    const url = await serve(() => {}); // never answers
    const failure = await createHttpFetch({ idleTimeoutMs: 50 })(url).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as TypeError).cause)).toContain('No answer from 127.0.0.1');
  });

  it('gives up on a connection that never opens, after the connect timeout', async () => {
    // A listener whose process never accepts: once its accept queue is full, connects hang.
    const listener = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () {
          process.stdout.write(String(this.address().port) + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(listener.stdout!, 'data')) as [Buffer];
      const port = Number(line.toString().trim());
      const fillers = Array.from({ length: 8 }, () =>
        connect(port, '127.0.0.1').on('error', () => {}),
      );
      try {
        const failure = await createHttpFetch({ connectTimeoutMs: 200, idleTimeoutMs: 60_000 })(
          `http://127.0.0.1:${port}/`,
        ).catch((error: unknown) => error);

        expect(failure).toBeInstanceOf(TypeError);
        expect(String((failure as TypeError).cause)).toBe(
          `Error: Could not connect to 127.0.0.1:${port} within 200 ms`,
        );
      } finally {
        for (const socket of fillers) socket.destroy();
      }
    } finally {
      listener.kill('SIGKILL');
    }
  });

  it('stops when its signal aborts, with the signal reason as fetch does', async () => {
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const url = await serve(() => arrived()); // never answers
    const controller = new AbortController();
    const pending = httpFetch(url, { signal: controller.signal });
    await requested;
    controller.abort(new Error('caller gave up'));

    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('answers 205 and a gzip-labelled 204 with no body, as fetch does', async () => {
    const url = await serve((req, res) => {
      res.writeHead(req.url === '/reset' ? 205 : 204, { 'content-encoding': 'gzip' });
      res.end();
    });

    const reset = await httpFetch(`${url}/reset`);
    const empty = await httpFetch(`${url}/empty`);

    expect([reset.status, reset.body, empty.status, empty.body]).toEqual([205, null, 204, null]);
  });

  it('fails on a corrupt gzip answer, whatever the case of its encoding', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'GZIP' });
      res.end('not gzip at all');
    });

    const failure = await httpFetch(url).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('Z_DATA_ERROR');
  });
});
