import { type Config, loadSettings } from '../../config/index.js';
import { buildStoreClient } from '../compose/clients.js';
import { createLogger } from '../log.js';
import { StoreError } from '../store/errors.js';
import { EXIT, exitOn, settingsOrExit } from './exit.js';

/** Null: no such order in the store. Undefined after saying why Shopify could not be asked. */
export const orderByName = (name: string, shopify: Config['shopify']) =>
  buildStoreClient(shopify, createLogger({ level: 'warn' }))
    .findOrderByName(name)
    .catch(exitOn([StoreError], EXIT.unavailable, `Could not ask Shopify for order ${name}`));

/** Undefined after saying why not: no Shopify settings, Shopify unreachable, or no such order. */
export async function orderNamed(name: string) {
  const shopify = settingsOrExit(
    () => loadSettings(['shopify']).shopify,
    `Finding order ${name} by its name needs the Shopify settings`,
  );
  if (!shopify) return undefined;
  const found = await orderByName(name, shopify);
  if (found === null) {
    console.error(`No order named ${name} in the store.`);
    process.exitCode = EXIT.noInput;
  }
  return found ?? undefined;
}

/** Undefined, after saying what an order argument looks like. */
export function notAnOrder(raw: string): undefined {
  console.error(
    `Not a Shopify order id or name: ${raw} (e.g. 5551234, gid://shopify/Order/5551234, #1003)`,
  );
  process.exitCode = EXIT.usage;
  return undefined;
}
