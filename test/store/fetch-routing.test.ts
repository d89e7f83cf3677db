import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shopFetch, storeConnections } from '../../src/store/fetch-routing.js';

// Real connections here: nock's fetch would stand in for the store client's connections.
beforeAll(() => nock.restore());
afterAll(() => nock.activate());

const SHOP = 'demo.myshopify.com';
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

describe('the Admin API client fetch', () => {
  it('sends the shop’s requests to the local store URL, keeping its path, query, headers and body', async () => {
    const seen: { url?: string; token?: string; body?: string }[] = [];
    const url = await serve(async (req, res) => {
      seen.push({
        url: req.url!,
        token: req.headers['x-shopify-access-token'] as string,
        body: await bodyOf(req),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"ok":true}}');
    });

    const answer = await shopFetch(SHOP, `${url}/store/`)(
      `https://${SHOP}/admin/api/2026-10/graphql.json?x=1`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'shpat_test' },
        body: '{"query":"{ shop { name } }"}',
      },
    );
    // Another origin is left as it is.
    await shopFetch(SHOP, 'http://127.0.0.1:9/')(`${url}/elsewhere`);

    expect(await answer.json()).toEqual({ data: { ok: true } });
    expect(seen).toEqual([
      {
        url: '/store/admin/api/2026-10/graphql.json?x=1',
        token: 'shpat_test',
        body: '{"query":"{ shop { name } }"}',
      },
      { url: '/elsewhere', token: undefined, body: '' },
    ]);
  });

  it('gives up on a store that goes silent, after the idle timeout', async () => {
    const url = await serve(() => {}); // never answers
    const fetchFn = shopFetch(SHOP, url, storeConnections({ idleTimeoutMs: 50 }));

    const failure = await fetchFn(`https://${SHOP}/admin/api/2026-10/graphql.json`).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as { code?: string }).code).toBe(
      'UND_ERR_HEADERS_TIMEOUT',
    );
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
        const connections = storeConnections({ connectTimeoutMs: 200, idleTimeoutMs: 60_000 });
        const started = Date.now();
        const failure = await shopFetch(
          SHOP,
          `http://127.0.0.1:${port}`,
          connections,
        )(`https://${SHOP}/admin/api/2026-10/graphql.json`).catch((error: unknown) => error);

        expect(failure).toBeInstanceOf(TypeError);
        expect(((failure as TypeError).cause as { code?: string }).code).toBe(
          'UND_ERR_CONNECT_TIMEOUT',
        );
        expect(Date.now() - started).toBeLessThan(10_000);
      } finally {
        for (const socket of fillers) socket.destroy();
      }
    } finally {
      listener.kill('SIGKILL');
    }
  });
});
