import type { Command } from 'commander';
import {
  describePrefix,
  ForgetRefusedError,
  forgetEnvironment,
} from '../compose/forget-environment.js';
import {
  AdoptTokenRefusedError,
  adoptReissuedToken,
  environmentFingerprint,
  readPartnerEnvironment,
} from '../records/partner-environment.js';
import { recordCliAction } from './audit.js';
import { EXIT, exitOn } from './exit.js';
import { withSharedParts } from './with-parts.js';

export function registerEnvironmentCommand(program: Command): void {
  const environment = program
    .command('environment')
    .description(
      'which partner environment the records under QUEUE_PREFIX belong to; forget them, or keep them for a reissued token',
    )
    .action(() =>
      withSharedParts(async (parts, config) => {
        const stored = await readPartnerEnvironment(parts.redis, parts.prefix);
        const contents = await describePrefix(parts);
        console.log(
          `QUEUE_PREFIX=${parts.prefix}: ${contents.records} order records (${contents.registered} registered), ${contents.keys} keys in all.`,
        );
        if (!stored) {
          console.log(
            'No partner environment recorded yet: the next start records the configured one.',
          );
          return;
        }
        console.log(`Records made through ${stored.apiUrl}, since ${stored.claimedAt}.`);
        console.log(
          stored.fingerprint === environmentFingerprint(config.partner)
            ? 'The configured address and token are the same: the connector starts.'
            : stored.apiUrl === config.partner.apiUrl
              ? 'The configured token is another one for the same address: at start the connector reads one shipment registered here with it (one request from the budget). A 200 (or no shipment registered yet) proves the same account and the new token is adopted; a 404 means another account, and the connector refuses to start. See `connector environment adopt-token --help` for when that check cannot decide.'
              : `The configured environment (${config.partner.apiUrl}) is another one: the connector refuses to start. See \`connector environment forget --help\` and \`connector environment adopt-token --help\`.`,
        );
      }),
    );

  environment
    .command('forget')
    .description(
      'delete everything kept under QUEUE_PREFIX (records, jobs, watermark), so the next start begins afresh with the configured environment; stop every connector process first',
    )
    .option('--yes', 'really delete (without it, only says what would go)')
    .action((opts: { yes?: boolean }) =>
      withSharedParts(async (parts) => {
        const contents = await describePrefix(parts);
        if (!opts.yes) {
          console.log(
            `Would delete ${contents.keys} keys under QUEUE_PREFIX=${parts.prefix}: ${contents.records} order records (${contents.registered} registered) and every job. Run again with --yes to delete them.`,
          );
          return;
        }
        const forgotten = await forgetEnvironment(parts).catch(
          exitOn([ForgetRefusedError], EXIT.unavailable),
        );
        if (!forgotten) return;
        const { deletedKeys } = forgotten;
        // After the deletion (the trail was under the prefix too): who wiped it stays on record.
        await recordCliAction(parts.redis, parts.prefix, {
          action: 'environment forget',
          jobIds: [],
          orderIds: [],
          count: deletedKeys,
          detail: `${deletedKeys} keys deleted`,
        });
        console.log(
          `Deleted ${deletedKeys} keys under QUEUE_PREFIX=${parts.prefix}. The next start records the configured partner environment; its first reconciliation looks back RECONCILE_FIRST_LOOKBACK_DAYS and sends the orders still open.`,
        );
      }),
    );

  environment
    .command('adopt-token')
    .description(
      'the provider reissued the token of the same account: keep the records and accept the configured token (same PARTNER_API_URL only). `connector start` does this by itself when the new token reads a shipment registered here; this is for when it cannot tell (the provider unreachable, or refusing the new token)',
    )
    .action(() =>
      withSharedParts(async (parts, config) => {
        const adopted = await adoptReissuedToken(parts.redis, parts.prefix, config.partner).then(
          () => true,
          exitOn([AdoptTokenRefusedError], EXIT.config),
        );
        if (!adopted) return;
        await recordCliAction(parts.redis, parts.prefix, {
          action: 'environment adopt-token',
          jobIds: [],
          orderIds: [],
          count: 0,
          detail: `token of ${config.partner.apiUrl} adopted`,
        });
        console.log(
          `The records under QUEUE_PREFIX=${parts.prefix} now go with the configured token of ${config.partner.apiUrl}.`,
        );
      }),
    );
}
