import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/demo/free-port.js';
import {
  portInUse,
  type RunningCommand,
  runCommandLine,
  waitUntilTrue,
} from '../helpers/npm-command.js';

/**
 * `npm run sandbox` is npm → sh → tsx → node: killing npm signals none of the others. The local
 * servers watch the processes they were started from and close when one goes, freeing the port.
 */

const running: RunningCommand[] = [];
afterEach(() => {
  for (const command of running.splice(0)) {
    if (command.child.exitCode === null) command.child.kill('SIGKILL');
  }
});

const cases = [
  {
    name: 'connector sandbox',
    line: (port: number) => `npm run sandbox -- --port ${port}`,
    signal: 'SIGKILL',
  },
  {
    name: 'connector fake-store',
    line: (port: number) => `npm run connector -- fake-store --port ${port}`,
    signal: 'SIGTERM',
  },
] as const;

describe('local servers stop when the npm that started them dies', () => {
  for (const { name, line, signal } of cases) {
    it(`${name}: npm killed with ${signal} frees the port`, async () => {
      const port = await freePort('127.0.0.1');
      const npm = runCommandLine(line(port));
      running.push(npm);
      await waitUntilTrue(() => portInUse(port), `${name} to listen on ${port}`);

      npm.child.kill(signal);
      await npm.exited;

      await waitUntilTrue(async () => !(await portInUse(port)), `port ${port} to be free`, 20_000);
      expect(await portInUse(port)).toBe(false);
    }, 90_000);
  }
});
