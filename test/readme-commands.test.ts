import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../src/demo/free-port.js';
import { startPartnerSandbox } from '../src/sandbox/partner/index.js';
import { createStoreClient } from '../src/store/client.js';
import { silentLogger } from './helpers/intake.js';
import {
  portInUse,
  type RunningCommand,
  runCommandLine,
  waitUntilTrue,
} from './helpers/npm-command.js';

/**
 * The commands the README shows, each run as written (a port replaced by a free one) or left out
 * for a stated reason. The list is checked against the README's ```sh blocks both ways: a command
 * added to the README fails this test until it is listed here.
 */

type Plan =
  | { run: 'server'; ready: RegExp; check?: (output: string) => Promise<void> }
  | { covered: string; by: string }
  | { skip: string };

/** What the fake store prints must be enough to reach it, with the shop the README names. */
async function connectorReachesFakeStore(output: string): Promise<void> {
  const setting = (name: string) => new RegExp(`${name}=(\\S+)`).exec(output)?.[1];
  expect(setting('SHOPIFY_SHOP')).toBe('demo-shop.myshopify.com');
  const client = createStoreClient({
    shop: setting('SHOPIFY_SHOP')!,
    auth: { kind: 'accessToken', accessToken: setting('SHOPIFY_ACCESS_TOKEN')! },
    apiVersion: '2026-10',
    adminApiUrl: setting('SHOPIFY_ADMIN_API_URL')!,
    webhookSecret: setting('SHOPIFY_WEBHOOK_SECRET')!,
    logger: silentLogger,
  });
  expect((await client.shopIdentity()).myshopifyDomain).toBe('demo-shop.myshopify.com');
}

const README_COMMANDS: Record<string, Plan> = {
  'npm install': { skip: 'installs the dependencies: every test run starts after it (CI: npm ci)' },
  'npm test': { skip: 'the test run itself' },
  'npm run demo': { covered: 'the demo, end to end', by: 'test/cli/demo.test.ts' },
  'npm start': { covered: 'a fresh clone, built and started', by: 'test/cli/npm-start.test.ts' },
  'node dist/src/cli/main.js start --no-http': {
    covered: 'the built CLI starting',
    by: 'test/deploy/dockerfile.test.ts',
  },
  'npm run connector -- drift': {
    covered: 'the drift report',
    by: 'test/cli/drift.test.ts',
  },
  'npm run connector -- drift --json --older-than-minutes 60': {
    covered: 'the drift report as JSON, with an age threshold',
    by: 'test/cli/drift.test.ts',
  },
  'npm run connector -- setup': {
    covered: 'preparing the Shopify side',
    by: 'test/cli/setup.test.ts',
  },
  'npm run connector -- setup --dry-run': {
    covered: 'what setup would do, changing nothing',
    by: 'test/cli/setup.test.ts',
  },
  'npm run connector -- order 5551234': {
    covered: 'reading one order',
    by: 'test/cli/order.test.ts',
  },
  'npm run connector -- order 5551234 --replay': {
    covered: 'replaying one order',
    by: 'test/cli/order.test.ts',
  },
  'connector environment': {
    covered: 'environments',
    by: 'test/compose/forget-environment.test.ts',
  },
  'connector environment forget': {
    covered: 'forgetting an environment',
    by: 'test/compose/forget-environment.test.ts',
  },
  'connector environment adopt-token': {
    covered: 'adopting a token',
    by: 'test/records/partner-environment.test.ts',
  },
  'npm run connector -- token --email you@example.com --url https://partner.example.com/api/v1': {
    skip: 'asks the real provider; test/cli/token.test.ts runs it against the sandbox',
  },
  'npm run demo -- --keep-running': {
    covered: 'the demo left running, and the CLI pointed at it',
    by: 'test/cli/demo.test.ts',
  },
  'npm run connector -- --env-file .connector-demo.env status "#1003"': {
    covered: 'the CLI with the settings file the demo writes',
    by: 'test/cli/demo.test.ts',
  },
  'npm run sandbox -- --port 4010': { run: 'server', ready: /PARTNER_API_URL=\S+/ },
  'npm run connector -- fake-store --port 4020': {
    run: 'server',
    ready: /SHOPIFY_WEBHOOK_SECRET=\S+/,
    check: connectorReachesFakeStore,
  },
};

/** Every command line of the file's ```sh blocks: comments dropped, continuations joined. */
function shellCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const text = block[1]!.replace(/\\\n\s*/g, ' ');
    let heredoc: string | undefined;
    for (const raw of text.split('\n')) {
      if (heredoc) {
        if (raw.trim() === heredoc) heredoc = undefined;
        continue;
      }
      const line = raw.replace(/(^|\s)#.*$/, '').trim();
      if (!line) continue;
      heredoc = /<<'?(\w+)'?/.exec(line)?.[1];
      commands.push(line.replace(/\s+/g, ' '));
    }
  }
  return commands;
}

const running: RunningCommand[] = [];
afterEach(() => {
  for (const command of running.splice(0)) {
    if (command.child.exitCode === null) command.child.kill('SIGKILL');
  }
});

describe('README commands', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('lists every command of the README, and only those', () => {
    expect(Object.keys(README_COMMANDS).sort()).toEqual([...new Set(shellCommands(readme))].sort());
    for (const plan of Object.values(README_COMMANDS)) {
      if ('by' in plan) expect(readFileSync(plan.by, 'utf8').length, plan.by).toBeGreaterThan(0);
    }
  });

  for (const [command, plan] of Object.entries(README_COMMANDS)) {
    if (!('run' in plan)) continue;
    it(`runs \`${command}\` as written`, async () => {
      const port = await freePort('127.0.0.1');
      const line = command.replace(/--port \d+/, `--port ${port}`);
      const npm = runCommandLine(line, { LOG_LEVEL: 'warn' });
      running.push(npm);
      await waitUntilTrue(
        () => plan.ready.test(npm.output()) || npm.child.exitCode !== null,
        `${command} to start`,
      );
      expect(npm.output()).toMatch(plan.ready);
      expect(npm.output()).toContain(`127.0.0.1:${port}`);
      await plan.check?.(npm.output());
      // Stopped as a person stops it: the server closes and frees its port.
      npm.child.kill('SIGTERM');
      await npm.exited;
      await waitUntilTrue(async () => !(await portInUse(port)), `port ${port} to be free`);
    }, 90_000);
  }
});

describe('docs/sandbox.md', () => {
  const doc = readFileSync('docs/sandbox.md', 'utf8');
  const blocks = [...doc.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!);

  it('calls the API and the control endpoints by hand as written (every body inline, no file)', async () => {
    const byHand = blocks.find((b) => b.startsWith('B=http://127.0.0.1:4010/api/v1'));
    const control = blocks.find((b) => b.startsWith('S=http://127.0.0.1:4010/_sandbox'));
    expect(byHand).toBeDefined();
    expect(control).toBeDefined();
    expect(`${byHand}${control}`).not.toMatch(/-d @(?!-)/);

    const sandbox = await startPartnerSandbox({});
    try {
      const port = new URL(sandbox.url).port;
      const dir = mkdtempSync(join(tmpdir(), 'sandbox-doc-'));
      const script = (name: string, block: string) => {
        const file = join(dir, name);
        writeFileSync(file, `set -e\n${block.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`)}`);
        return runCommandLine(`bash ${file}`);
      };
      const api = script('by-hand.sh', byHand!);
      expect(await api.exited, api.output()).toBe(0);
      expect(api.output()).toContain('"order_number":"PS-000001"');
      const controls = script('control.sh', control!);
      expect(await controls.exited, controls.output()).toBe(0);
      expect(controls.output()).toContain('"status":"delivered"');
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
