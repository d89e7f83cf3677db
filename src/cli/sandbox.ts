import type { Command } from 'commander';
import { z } from 'zod';
import { lenientSetting } from '../../config/index.js';
import { createLogger } from '../log.js';
import { startPartnerSandbox } from '../sandbox/partner/index.js';
import { serveUntilStopped } from './parent-watch.js';

const wholeNumber = (min: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`);

/** So messages name the flag the user typed. */
const flagOf = (key: PropertyKey) =>
  `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const optionsSchema = z.object({
  port: wholeNumber(0).max(65535),
  host: z.string().min(1),
  rateLimit: wholeNumber(1),
  rateWindowMs: wholeNumber(1),
  autoAdvanceMs: wholeNumber(1).optional(),
  latencyMs: wholeNumber(0).optional(),
});

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description(
      'run the local partner sandbox, an in-memory Partner Shipment API for demos and tests',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--rate-limit <n>', 'requests per window per token', '60')
    .option('--rate-window-ms <ms>', 'sliding rate window in milliseconds', '60000')
    .option('--auto-advance-ms <ms>', 'move each shipment one status forward every <ms>')
    .option('--latency-ms <ms>', 'delay added to every API response')
    .action(async (raw: Record<string, string | undefined>) => {
      const parsed = optionsSchema.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `  ${flagOf(issue.path[0] ?? '')} ${issue.message}`,
        );
        program.error(`Invalid sandbox options:\n${problems.join('\n')}`);
      }
      const options = parsed.data;
      const sandbox = await startPartnerSandbox({
        ...options,
        logger: createLogger({
          level: lenientSetting('LOG_LEVEL') ?? 'info',
          name: 'partner-sandbox',
        }),
      });
      await serveUntilStopped('sandbox', sandbox, [
        `Partner sandbox listening: PARTNER_API_URL=${sandbox.url}`,
        `Control endpoints (local only, no token): ${sandbox.controlUrl}`,
        `Rate limit: ${options.rateLimit} requests per ${options.rateWindowMs} ms per token` +
          (options.autoAdvanceMs ? `; shipments advance every ${options.autoAdvanceMs} ms` : ''),
        'Seeded accounts (sandbox only):',
        ...sandbox.accounts.map(
          (account) =>
            `  ${account.email}  password ${account.password}  token ${account.token}  (${account.name})`,
        ),
      ]);
    });
}
