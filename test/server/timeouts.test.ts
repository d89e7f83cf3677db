import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_TIMEOUTS } from '../../src/server/app.js';
import { type RunningIntake, startIntake } from '../helpers/intake.js';

let intake: RunningIntake | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await intake?.close();
  intake = undefined;
});

/** A raw connection to the server, and everything it answers until the server closes it. */
async function slowClient(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk) => {
    answer += String(chunk);
  });
  const closed = once(socket, 'close').then(() => answer);
  return { socket, closed };
}

describe('slow clients', () => {
  it('cuts a webhook whose body stops coming, answering 408', async () => {
    intake = await startIntake({
      name: 'slow-client',
      // The request limit only: the idle limit must not be what cuts it here.
      timeouts: { ...HTTP_TIMEOUTS, requestMs: 300, idleMs: 60_000, checkEveryMs: 50 },
    });
    const client = await slowClient(intake.url);

    // Headers, then 6 bytes of the 1,000 announced, then nothing.
    client.socket.write(
      'POST /webhooks/shopify HTTP/1.1\r\nHost: connector\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":',
    );

    expect(await client.closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts a connection that sends nothing at all', async () => {
    intake = await startIntake({
      name: 'idle-client',
      timeouts: { ...HTTP_TIMEOUTS, requestMs: 60_000, idleMs: 300, checkEveryMs: 50 },
    });
    const client = await slowClient(intake.url);

    expect(await client.closed).toBe('');
  });

  it('sets limits on the real server: whole request, idle connection, keep-alive', async () => {
    intake = await startIntake({ name: 'limits' });
    const server = intake.app.server;

    expect(server.requestTimeout).toBe(10_000);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.timeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(72_000);
    expect(server.maxRequestsPerSocket).toBe(1_000);
  });
});
