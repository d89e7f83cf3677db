import { once } from 'node:events';
import type { Command } from 'commander';
import { ConfigError, loadSettings } from '../../config/index.js';
import { DEMO_SETTINGS_FILE, demoCliSettings, writeDemoSettings } from '../demo/cli-settings.js';
import {
  type LocalRedis,
  localRedis,
  NoRedisError,
  PrivateRedisError,
} from '../demo/private-redis.js';
import { DemoInterrupted, runScenario } from '../demo/scenario.js';
import { AUTO_ADVANCE_MS } from '../demo/settings.js';
import { type DemoStack, startDemoStack } from '../demo/stack.js';
import { shopifyProgress, summaryLines } from '../demo/summary.js';
import { OrderWatcher } from '../demo/watch.js';
import { messageOf } from '../error-message.js';
import { EXIT, settingsOrExit } from './exit.js';
import { whenStartedFromGone } from './parent-watch.js';

/** 128 + SIGINT, as a shell reports Ctrl-C. */
const EXIT_INTERRUPTED = 130;
const DOCKER_REDIS = 'docker run -d --name connector-redis -p 6379:6379 redis:7-alpine';

const print = (...lines: string[]) => {
  for (const line of lines) console.log(line);
};

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the whole flow locally (partner sandbox, fake store, connector) and narrate it; needs only Redis',
    )
    .option('--keep-running', 'leave everything up afterwards and print the addresses to try')
    .action(async (opts: { keepRunning?: boolean }) => {
      process.exitCode = await runDemo({ keepRunning: Boolean(opts.keepRunning) });
      // Everything is closed by now; a stray handle must not keep a finished demo alive.
      setTimeout(() => process.exit(), 3_000).unref();
    });
}

async function runDemo(options: { keepRunning: boolean }): Promise<number> {
  const configuredUrl = settingsOrExit(() => loadSettings(['redis']).redis.url);
  if (configuredUrl === undefined) return EXIT.config;
  let redis: LocalRedis;
  try {
    redis = await localRedis({ url: configuredUrl });
  } catch (error) {
    if (!(error instanceof NoRedisError || error instanceof PrivateRedisError)) throw error;
    console.error(error.message);
    if (error instanceof NoRedisError) console.error(`Or run one: ${DOCKER_REDIS}`);
    return EXIT.unavailable;
  }
  const started = Date.now();
  const interrupt = new AbortController();
  const onSignal = () => {
    if (interrupt.signal.aborted) {
      console.error('Second interrupt: exiting without cleaning up.');
      process.exit(EXIT_INTERRUPTED);
    }
    print('\nInterrupted: stopping and cleaning up (Ctrl-C again to skip the cleanup).');
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  void whenStartedFromGone().then(() => {
    if (!interrupt.signal.aborted) onSignal();
  });

  let stack: DemoStack | undefined;
  let watcher: OrderWatcher | undefined;
  let code = 0;
  let removeSettings: (() => void) | undefined;
  try {
    stack = await startDemoStack({ redisUrl: redis.url, print });
    printHeader(stack, redis, configuredUrl);
    watcher = new OrderWatcher({ store: stack.store, records: stack.parts.records, print });
    watcher.baseline();
    watcher.start();

    await runScenario({ stack, watcher, print, signal: interrupt.signal });
    printSummary(stack, watcher);

    if (options.keepRunning) {
      printAddresses(stack);
      removeSettings = printCliSettings(stack);
      if (!interrupt.signal.aborted) await once(interrupt.signal, 'abort');
    }
  } catch (error) {
    if (error instanceof DemoInterrupted || interrupt.signal.aborted) {
      code = EXIT_INTERRUPTED;
    } else if (error instanceof ConfigError) {
      console.error(`\n${error.message}`);
      code = EXIT.config;
    } else {
      console.error(`\nThe demo failed: ${messageOf(error)}`);
      code = 1;
    }
  } finally {
    removeSettings?.();
    await watcher?.stop();
    if (stack) {
      try {
        const removed = await stack.close();
        print(
          `\nCleaned up: stopped the connector, sandbox and fake store; removed ${removed} Redis keys`,
          `(queues obliterated, prefix ${stack.prefix} and this run's partner budget).`,
        );
      } catch (error) {
        console.error(
          `Cleanup failed (${messageOf(error)}). Remove the keys by hand:\n` +
            `  redis-cli --scan --pattern '${stack.prefix}:*' | xargs -r redis-cli del`,
        );
        code ||= 1;
      }
    }
    await redis.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (code === 0) print(`Done in ${Math.round((Date.now() - started) / 1000)} s.`);
  return code;
}

function printHeader(stack: DemoStack, redis: LocalRedis, configuredUrl: string): void {
  const seeded = stack.store.orders();
  print(
    'Connector demo: Shopify orders becoming shipments, end to end, on this machine.',
    '',
    `   Redis            ${redis.url}, keys under prefix ${stack.prefix} (removed at the end)`,
    ...(redis.isPrivate
      ? [
          `                    a private redis-server for this run (nothing answered at ${configuredUrl})`,
        ]
      : []),
    `   Partner sandbox  ${stack.sandbox.url}, shipments move on every ${AUTO_ADVANCE_MS / 1000} s`,
    `                    token ${stack.partnerToken} (issued for this run)`,
    `   Fake store       ${stack.store.url} (${stack.store.shop}), ${seeded.length} seeded orders ` +
      `${seeded[0]?.name}–${seeded.at(-1)?.name}`,
    `   Connector        ${stack.webhookUrl} (the real service, via startService;`,
    '                    its warnings show below as "(connector log, warn)")',
    boardLine(stack),
    '                    every queue and its jobs; add --keep-running to look around afterwards',
    '',
    '   Each line below names a Shopify order. "registered": the provider accepted the shipment;',
    '   "refused": it cannot ship as it is (the reason is what staff see); "skipped": not eligible;',
    '   "→ Shopify": what the connector wrote on the order (tags, partner_shipment metafields, note).',
  );
}

const boardLine = ({ board }: DemoStack) =>
  `   Bull Board       ${board.url}  (user ${board.user}, password ${board.password})`;

function printSummary(stack: DemoStack, watcher: OrderWatcher): void {
  const orders = stack.store.orders();
  const { fulfilled, delivered } = shopifyProgress(orders);
  print(
    '\n6. Where every order ended up',
    ...summaryLines(orders, (id) => watcher.record(id), stack.sandbox.shipments()),
    `\n   The connector made ${stack.store.mutations.length} changes to Shopify orders ` +
      `and ${stack.sandbox.requests.length} requests to the provider.`,
    `   In Shopify, ${fulfilled} orders were fulfilled with the carrier's tracking and ${delivered} marked delivered,`,
    '   each by one fulfillment per location and one email to the customer.',
  );
}

function printAddresses(stack: DemoStack): void {
  const origin = new URL(stack.webhookUrl).origin;
  print(
    '\nStill running (--keep-running). Ctrl-C stops everything and removes the Redis keys.',
    `   Partner API      ${stack.sandbox.url}  (Authorization: Bearer ${stack.partnerToken})`,
    `   Sandbox control  ${stack.sandbox.controlUrl}  (docs/sandbox.md)`,
    `   Fake store       ${stack.store.url}  (GET /_fake/orders, GET /_fake/mutations)`,
    `   Webhooks         ${stack.webhookUrl}`,
    `   Health           ${origin}/healthz  ${origin}/readyz  ${origin}/status`,
    boardLine(stack),
    'Try a new order (its webhook goes to the connector, and this window narrates it):',
    `   curl -s -X POST ${stack.store.url}/_fake/orders -H 'content-type: application/json' -d '{"order":{}}'`,
    `   curl -s ${stack.sandbox.url}/shipments -H 'authorization: Bearer ${stack.partnerToken}'`,
  );
}

function printCliSettings(stack: DemoStack): () => void {
  const settings = demoCliSettings(stack.env);
  let remove: () => void = () => {};
  let written: string;
  try {
    remove = writeDemoSettings(settings);
    written = ` (written to ${DEMO_SETTINGS_FILE}, removed when the demo stops)`;
  } catch (error) {
    written = ` (could not write ${DEMO_SETTINGS_FILE}: ${messageOf(error)})`;
  }
  const shown = [
    'REDIS_URL',
    'QUEUE_PREFIX',
    'PARTNER_API_URL',
    'PARTNER_API_TOKEN',
    'SHOPIFY_SHOP',
    'SHOPIFY_ACCESS_TOKEN',
    'SHOPIFY_ADMIN_API_URL',
  ];
  const cli = `npm run connector -- --env-file ${DEMO_SETTINGS_FILE}`;
  print(
    `\nThe connector's CLI, pointed at this demo${written}:`,
    ...shown.filter((name) => settings[name]).map((name) => `   ${name}=${settings[name]}`),
    'From another terminal in this directory, e.g.:',
    `   ${cli} status "#1003"      # its timeline and what to do`,
    `   ${cli} drift`,
    `   ${cli} replay --queue create-shipment --failed --dry-run`,
  );
  return remove;
}
