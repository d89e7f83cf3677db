import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/demo/free-port.js';
import {
  DEMO_SHOP,
  DEMO_STORE_TOKEN,
  DEMO_WEBHOOK_SECRET,
  demoEnv,
} from '../../src/demo/settings.js';
import { startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { startFakeStore } from '../../src/sandbox/store/index.js';
import { portInUse, runCommandLine, waitUntilTrue } from '../helpers/npm-command.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';

/**
 * `npm start` on a fresh clone: no dist/ yet. It builds it first, then starts the connector (here
 * against the local sandboxes) instead of failing with MODULE_NOT_FOUND.
 */

const clone = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('npm start on a fresh clone', () => {
  it('builds dist/ once, then starts', async () => {
    for (const entry of [
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'scripts',
      'config',
      'src',
      'jobs',
    ]) {
      cpSync(entry, join(clone, entry), { recursive: true });
    }
    symlinkSync(resolve('node_modules'), join(clone, 'node_modules'));

    const sandbox = await startPartnerSandbox({});
    const store = await startFakeStore({
      shop: DEMO_SHOP,
      accessToken: DEMO_STORE_TOKEN,
      webhookSecret: DEMO_WEBHOOK_SECRET,
    });
    const prefix = uniquePrefix('npm-start');
    const redis = testRedis();
    const port = await freePort('127.0.0.1');
    const npm = runCommandLine(
      'npm start',
      demoEnv({
        redisUrl: REDIS_URL,
        prefix,
        port,
        partnerUrl: sandbox.url,
        partnerToken: 'sbx_demo_token',
        storeUrl: store.url,
      }),
      clone,
    );
    try {
      await waitUntilTrue(
        async () => (await portInUse(port)) || npm.child.exitCode !== null,
        'the connector to listen',
        240_000,
      );
      expect(npm.output()).not.toContain('MODULE_NOT_FOUND');
      expect(npm.output()).toContain('dist/ is missing: building it once');
      expect(await portInUse(port)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      npm.child.kill('SIGTERM');
      await npm.exited;
      await waitUntilTrue(async () => !(await portInUse(port)), 'the connector to stop', 30_000);
      await Promise.all([sandbox.close(), store.close()]);
      await dropKeys(redis, prefix);
      await redis.quit();
    }
  }, 300_000);
});
