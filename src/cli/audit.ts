import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import { loadSettings } from '../../config/index.js';
import { parseOrderId } from '../domain/order.js';
import { messageOf } from '../error-message.js';
import { listStaffActions, recordStaffAction, type StaffAction } from '../records/audit-trail.js';
import { parseDay, utcText } from './dates.js';
import { settingsOrExit, withRedisAt } from './exit.js';
import { notAnOrder, orderNamed } from './order-name.js';

/** The CLI has no login of its own. */
function cliUser(): string {
  try {
    return userInfo().username;
  } catch {
    // No user database entry (some containers).
    return process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  }
}

/** A trail that cannot be written does not undo the change. */
export async function recordCliAction(
  redis: Redis,
  prefix: string,
  action: Omit<StaffAction, 'at' | 'who' | 'via'>,
): Promise<void> {
  try {
    await recordStaffAction(redis, prefix, {
      at: Date.now(),
      who: cliUser(),
      via: 'cli',
      ...action,
    });
  } catch (error) {
    console.error(`Done, but not recorded in the audit trail: ${messageOf(error)}`);
  }
}

function formatStaffAction(action: StaffAction): string {
  const when = utcText(new Date(action.at).toISOString());
  const what = [
    `${action.action}${action.queue ? ` in ${action.queue}` : ''}`,
    action.detail ? ` (${action.detail})` : '',
    action.queue || action.count > 0 ? `: ${action.count} job(s)` : '',
  ].join('');
  const more = action.count > action.jobIds.length ? ', …' : '';
  const ids = action.jobIds.length > 0 ? `  jobs ${action.jobIds.join(', ')}${more}` : '';
  const orders = action.orderIds.length > 0 ? `  orders ${action.orderIds.join(', ')}` : '';
  return `${when}  ${action.who} (${action.via})  ${what}${ids}${orders}`;
}

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description(
      'list what staff changed, newest first: Bull Board retries, cleans, promotes and removes, and the commands that change jobs or records (who, when, which jobs and orders)',
    )
    .option(
      '--order <order>',
      'only actions on this order: its id, gid or name (#1003 asks Shopify)',
    )
    .option('--since <date>', 'only actions since, YYYY-MM-DD (UTC) or ISO', parseDay)
    .option('--limit <n>', 'at most this many', parseLimit, 100)
    .option('--json', 'print JSON')
    .action(async (opts: { order?: string; since?: Date; limit: number; json?: boolean }) => {
      const location = settingsOrExit(
        () => loadSettings(['redis']).redis,
        'Reading the audit trail needs',
      );
      if (!location) return;
      const orderId = opts.order === undefined ? undefined : await orderIdOf(opts.order);
      if (opts.order !== undefined && !orderId) return;
      await withRedisAt(location.url, async (redis) => {
        const actions = await listStaffActions(redis, location.queuePrefix, {
          ...(orderId ? { orderId } : {}),
          ...(opts.since ? { since: opts.since.getTime() } : {}),
          limit: opts.limit,
        });
        if (opts.json) {
          console.log(JSON.stringify(actions, null, 2));
        } else if (actions.length === 0) {
          console.log(
            `No staff action recorded${orderId ? ` on order ${orderId}` : ''}${opts.since ? ` since ${opts.since.toISOString()}` : ''} under QUEUE_PREFIX=${location.queuePrefix}.`,
          );
        } else {
          for (const action of actions) console.log(formatStaffAction(action));
        }
      });
    });
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Not a positive whole number: ${value}`);
  return n;
}

async function orderIdOf(raw: string): Promise<string | undefined> {
  const value = raw.trim();
  const id = /^#/.test(value) ? null : parseOrderId(value);
  // Long digits are an id; short ones, or with #, a name.
  if (id && (value.startsWith('gid://') || id.length >= 6)) return id;
  if (!/^#?[\p{L}\p{N}_.-]{1,40}$/u.test(value)) return notAnOrder(raw);
  return (await orderNamed(value.startsWith('#') ? value : `#${value}`))?.id;
}
