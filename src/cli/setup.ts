import type { Command } from 'commander';
import { loadSettings } from '../../config/index.js';
import { buildStoreClient } from '../compose/clients.js';
import { prepareStore, type SetupItem, type SetupResult } from '../compose/store-setup.js';
import { createLogger } from '../log.js';
import { StoreError } from '../store/errors.js';
import { EXIT, exitOn, settingsOrExit } from './exit.js';

/** Scopes, customer data or the public address: setup cannot fix them. */
const SETUP_INCOMPLETE = 1;

const MARK: Record<SetupItem['state'], string> = {
  ok: '✓',
  todo: '•',
  missing: '✗',
  unchecked: '–',
};

const CHANGE_WORDS = {
  created: { done: 'created', would: 'would be created' },
  updated: { done: 'updated', would: 'would be updated' },
  unchanged: { done: 'already in place', would: 'already in place' },
} as const;

function formatSetup(result: SetupResult): string {
  const changeWords = (item: SetupItem) =>
    item.change ? ` (${CHANGE_WORDS[item.change][result.dryRun ? 'would' : 'done']})` : '';
  return [
    `Shopify setup${result.shop ? ` of ${result.shop.name} (${result.shop.myshopifyDomain})` : ''}${result.dryRun ? ', dry run: nothing is changed' : ''}`,
    ...result.items.flatMap((item) => [
      `${MARK[item.state]} ${item.text}${changeWords(item)}`,
      ...(item.details ?? []).map((line) => `    ${line}`),
    ]),
    '',
    summary(result),
  ].join('\n');
}

function summary(result: SetupResult): string {
  const count = (change: SetupItem['change'], state: SetupItem['state']) =>
    result.items.filter((i) => i.change === change && i.state === state).length;
  const missing = result.items.filter((i) => i.state === 'missing').length;
  const changes = result.dryRun
    ? `${count('created', 'todo')} would be created, ${count('updated', 'todo')} updated`
    : `${count('created', 'ok')} created, ${count('updated', 'ok')} updated`;
  const head = `${changes}, ${count('unchanged', 'ok')} already in place.`;
  if (missing > 0) {
    return `${head} ${missing} item(s) marked ✗ need you: fix them as said, then run \`connector setup\` again.`;
  }
  if (result.dryRun && result.items.some((i) => i.state === 'todo')) {
    return `${head} Run \`connector setup\` without --dry-run to make the changes marked •.`;
  }
  return `${head} The Shopify side is ready.`;
}

export function registerSetupCommand(program: Command): void {
  program
    .command('setup')
    .description(
      "prepare the Shopify side: check the app's scopes, subscribe the order webhooks, create the order metafield definitions, check that orders carry shipping addresses",
    )
    .option('--dry-run', 'say what would be done, change nothing')
    .option('--public-url <url>', 'where Shopify reaches the connector (default: PUBLIC_URL)')
    .action(async (opts: { dryRun?: boolean; publicUrl?: string }) => {
      const shopify = settingsOrExit(
        () => loadSettings(['shopify']).shopify,
        'Setup talks to Shopify and needs',
      );
      if (!shopify) return;
      const publicUrl = settingsOrExit(
        () =>
          loadSettings(['server'], opts.publicUrl ? { PUBLIC_URL: opts.publicUrl } : process.env)
            .server.publicUrl,
        opts.publicUrl ? '--public-url' : 'PUBLIC_URL',
      );
      if (process.exitCode === EXIT.config) return;
      const store = buildStoreClient(shopify, createLogger({ level: 'warn' }));
      const result = await prepareStore(store, { publicUrl, dryRun: opts.dryRun ?? false }).catch(
        exitOn([StoreError], EXIT.unavailable, 'Could not reach Shopify'),
      );
      if (!result) return;
      console.log(formatSetup(result));
      if (result.items.some((i) => i.state === 'missing')) process.exitCode = SETUP_INCOMPLETE;
    });
}
