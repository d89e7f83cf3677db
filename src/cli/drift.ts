import { type Command, InvalidArgumentError } from 'commander';
import { buildPartnerSide, buildStoreClient } from '../compose/clients.js';
import { type DriftReport, driftReport } from '../compose/drift.js';
import { PartnerError } from '../partner/errors.js';
import { StoreError } from '../store/errors.js';
import { EXIT, exitOn } from './exit.js';
import { plural, stateWord } from './status-format.js';
import { withSharedParts } from './with-parts.js';

const LIST = 20;

function formatDrift(r: DriftReport): string {
  const mark = (count: number) => (count === 0 ? '✓' : '✗');
  const list = <T>(items: T[], line: (item: T) => string) =>
    items.slice(0, LIST).map((item) => `    ${line(item)}`);
  const { shipmentsWithoutOrder: s, fulfilledNotShipped: f, waitingTooLong: w } = r;
  const more =
    s.references.length > LIST
      ? `, … and ${s.references.length - LIST} more (--json lists all)`
      : '';
  const total =
    r.paidWithoutShipment.count + s.count + r.shippedNotFulfilled.count + f.count + w.count;
  const younger = r.paidWithoutShipment.youngerLeftOut;
  const verdict =
    total > 0
      ? `${plural(total, 'difference')} found.`
      : younger > 0
        ? `No drift older than ${plural(r.olderThanMinutes, 'minute')}.`
        : 'No drift found.';
  const lag =
    younger > 0
      ? ` ${plural(younger, 'paid order')} younger than that ${younger === 1 ? 'has' : 'have'} no shipment yet (on ${younger === 1 ? 'its' : 'their'} way, not counted; --older-than-minutes 0 lists ${younger === 1 ? 'it' : 'them'}).`
      : '';
  return [
    `Drift report, ${r.generatedAt}: orders and shipments since ${r.lookbackFrom}; differences younger than ${r.olderThanMinutes} minutes are left out.`,
    '',
    `${mark(r.paidWithoutShipment.count)} Paid orders with no shipment: ${r.paidWithoutShipment.count} (of ${r.paidWithoutShipment.ordersRead} orders read)`,
    ...list(
      r.paidWithoutShipment.orders,
      (o) =>
        `${o.orderId} (${o.name}): ${stateWord(o.state)}${o.job ? `, job ${o.job}` : ', no job'}`,
    ),
    `${mark(s.count)} Shipments at the provider with no order in this store: ${s.count}`,
    ...(s.count > 0 ? [`    references: ${s.references.slice(0, LIST).join(', ')}${more}`] : []),
    `${mark(r.shippedNotFulfilled.count)} Shipped at the provider, not fulfilled in Shopify: ${r.shippedNotFulfilled.count}`,
    ...list(r.shippedNotFulfilled.orders, (o) => {
      const why = o.fulfilJob
        ? `job fulfil-shipment/${o.fulfilJob.id}: ${o.fulfilJob.state}${o.fulfilJob.failedReason ? ` (${o.fulfilJob.failedReason.split('\n')[0]})` : ''}`
        : o.trackingNumber
          ? 'no fulfil job'
          : 'no tracking number read yet';
      return `${o.orderId} (${o.stage}): ${why}`;
    }),
    `${mark(f.count)} Fulfilled in Shopify, not shipped at the provider: ${f.count} (checked ${f.checked} of ${f.candidates} followed shipments not yet shipped${f.checked < f.candidates ? `; at most ${f.limit} are read, oldest first` : ''})`,
    ...list(f.orders, (o) => `${o.orderId}: provider status ${o.providerStatus}`),
    `${mark(w.count)} Waiting on Shopify for more than ${plural(w.days, 'day')} (still looked at): ${w.count}`,
    ...list(
      w.orders,
      (o) => `${o.orderId}: since ${o.waitingSince}${o.reason ? ` (${o.reason})` : ''}`,
    ),
    '',
    `${verdict}${lag} Requests: ${plural(r.requests.provider, 'request')} to the provider (list pages, ${plural(r.requests.shipmentsListed, 'shipment')} listed, from the shared budget at sync priority), ${plural(r.requests.shopify, 'Shopify read')}.`,
  ].join('\n');
}

function positiveInt(name: string, min = 0) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}.`);
    return n;
  };
}

interface DriftOptions {
  json?: boolean;
  olderThanMinutes: number;
  days?: number;
  maxShopifyReads: number;
}

export function registerDriftCommand(program: Command): void {
  program
    .command('drift')
    .description(
      'one report of where Shopify, the provider and the records disagree: paid orders with no shipment, shipments with no order, shipped but not fulfilled, fulfilled but not shipped',
    )
    .option('--json', 'print JSON')
    .option(
      '--older-than-minutes <n>',
      'leave out differences younger than this (the normal lag)',
      positiveInt('--older-than-minutes'),
      30,
    )
    .option(
      '--days <n>',
      'how far back to compare (default RECONCILE_FIRST_LOOKBACK_DAYS)',
      positiveInt('--days', 1),
    )
    .option(
      '--max-shopify-reads <n>',
      'the most orders whose fulfillments are read in Shopify',
      positiveInt('--max-shopify-reads'),
      50,
    )
    .action(async (opts: DriftOptions) => {
      await withSharedParts(async (parts, config, logger) => {
        const { partner } = buildPartnerSide(config.partner, parts.redis, logger);
        const report = await driftReport(
          { parts, partner, store: buildStoreClient(config.shopify, logger) },
          {
            olderThanMinutes: opts.olderThanMinutes,
            lookbackDays: opts.days ?? config.intake.firstLookbackDays,
            maxFulfillmentReads: opts.maxShopifyReads,
          },
        )
          .catch(exitOn([PartnerError], EXIT.unavailable, 'Could not read the provider'))
          .catch(exitOn([StoreError], EXIT.unavailable, 'Could not read Shopify'));
        if (!report) return;
        console.log(opts.json ? JSON.stringify(report, null, 2) : formatDrift(report));
      });
    });
}
