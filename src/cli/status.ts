import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import { ConfigError, loadSettings } from '../../config/index.js';
import { askProviderForShipment, readStoredOrderStatus } from '../compose/order-status.js';
import { parseOrderId } from '../domain/order.js';
import { messageOf } from '../error-message.js';
import { createLogger } from '../log.js';
import { settingsOrExit, withRedis } from './exit.js';
import { notAnOrder, orderByName, orderNamed } from './order-name.js';
import { formatOrderStatus, type OrderStatus } from './status-format.js';

/** Bare digits may be either an id or a name. */
type OrderArgument = { kind: 'id' | 'name' | 'idOrName'; value: string };

function parseOrderArgument(raw: string): OrderArgument | null {
  const value = raw.trim();
  if (/^#\S+$/.test(value)) return { kind: 'name', value };
  if (value.startsWith('gid://')) {
    const id = parseOrderId(value);
    return id ? { kind: 'id', value: id } : null;
  }
  return /^\d{1,20}$/.test(value) ? { kind: 'idOrName', value } : null;
}

type StatusOptions = { live?: boolean; json?: boolean };

async function showStatus(raw: string, opts: StatusOptions, redis: Redis, prefix: string) {
  const argument = parseOrderArgument(raw);
  if (!argument) return notAnOrder(raw);
  const read = (orderId: string) => readStoredOrderStatus(redis, prefix, orderId);
  const byId = argument.kind === 'name' ? undefined : await read(argument.value);
  const found =
    argument.kind === 'name'
      ? await orderNamed(argument.value)
      : argument.kind === 'idOrName' && byId?.record === null && byId.jobs.length === 0
        ? await bareNumberAsName(argument.value)
        : null;
  if (found === undefined) return;
  const stored = found || !byId ? await read(found?.id ?? argument.value) : byId;

  let live: OrderStatus['live'];
  if (opts.live) {
    const partner = settingsOrExit(
      () => loadSettings(['partner']).partner,
      '--live asks the provider and needs the partner settings',
    );
    if (!partner) return;
    const logger = createLogger({ level: 'warn' });
    live = await askProviderForShipment(partner, redis, logger, stored.orderId).then(
      (shipment) => ({ shipment }),
      (error) => ({ error: messageOf(error) }),
    );
  }
  const status: OrderStatus = {
    ...stored,
    ...(found?.name ? { name: found.name } : {}),
    ...(live ? { live } : {}),
  };
  console.log(opts.json ? JSON.stringify(status, null, 2) : formatOrderStatus(status));
}

/** Null when no order has that name or the Shopify settings are missing; undefined as orderByName. */
async function bareNumberAsName(value: string) {
  try {
    return await orderByName(value, loadSettings(['shopify']).shopify);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(
      `${value} is no order id the connector knows of; looking it up as an order name (#${value}) needs the SHOPIFY_* settings.`,
    );
    return null;
  }
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      "what the connector knows of an order: eligibility, its jobs in every queue, the provider's order number and status, the last error, paused queues",
    )
    .argument(
      '<order>',
      'an order id (5551234 or gid://shopify/Order/5551234) or name: "#1003" (quoted: a shell takes an unquoted # for a comment) or 1003',
    )
    .option(
      '--live',
      'also ask the provider (GET /shipments/{reference}: one request from the shared budget)',
    )
    .option('--json', 'print JSON')
    .action((raw: string, opts: StatusOptions) =>
      withRedis('Reading the records needs', (redis, prefix) =>
        showStatus(raw, opts, redis, prefix),
      ),
    );
}
