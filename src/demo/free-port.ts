import { createServer } from 'node:net';

/**
 * A port that was free a moment ago. The connector's PORT must be a real number (0 is refused by
 * the config), and the fake store must know the webhook address before the connector starts.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
