import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { Command } from 'commander';
import { lenientSetting } from '../../config/index.js';
import { PartnerClient } from '../partner/client.js';
import { PartnerError } from '../partner/errors.js';

export interface TokenCommandIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  errorOutput: NodeJS.WritableStream;
}

/** The password never comes from argv, where `ps` and shell history would keep it. */
export async function runTokenCommand(
  { url, email, name }: { url: string; email: string; name: string },
  io: TokenCommandIo,
): Promise<number> {
  const password = await readPassword(io);
  if (!password) {
    io.errorOutput.write('No password given: type it at the prompt or pipe it on stdin.\n');
    return 2;
  }
  const client = new PartnerClient({ baseUrl: url });
  try {
    const record = await client.exchangeToken({ email, password, name });
    io.output.write(
      [
        `Token for account "${record.account}" (created ${record.created_at}):`,
        '',
        `  ${record.token}`,
        '',
        'Store it as PARTNER_API_TOKEN in your secret store or the .env beside the connector,',
        'never in git, URLs or shared documents. It does not expire; if it leaks, ask the',
        'provider to revoke it and run this command again. Do not run it again otherwise:',
        'the password is meant to be used once.',
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    const message = error instanceof PartnerError ? error.message : 'Unexpected error.';
    io.errorOutput.write(`Token exchange failed: ${message}\n`);
    return 1;
  }
}

async function readPassword(io: TokenCommandIo): Promise<string> {
  if (io.input.isTTY) {
    let muted = false;
    const echo = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) io.output.write(chunk);
        done();
      },
    });
    const rl = createInterface({ input: io.input, output: echo, terminal: true });
    io.output.write('Password: ');
    muted = true;
    try {
      return (await rl.question('')).trim();
    } finally {
      muted = false;
      io.output.write('\n');
      rl.close();
    }
  }
  return ((await text(io.input)).split(/\r?\n/)[0] ?? '').trim();
}

export function registerTokenCommand(program: Command): void {
  program
    .command('token')
    .description('exchange the partner account email and password for an API token (once)')
    .requiredOption('--email <email>', 'the partner account email')
    .option('--name <name>', 'a label for this integration', 'shopify-connector')
    .option('--url <url>', 'partner base address including /api/v1 (default: PARTNER_API_URL)')
    .action(async (opts: { email: string; name: string; url?: string }) => {
      const url = opts.url ?? lenientSetting('PARTNER_API_URL');
      if (!url) {
        console.error('Give --url or set PARTNER_API_URL (the base address including /api/v1).');
        process.exitCode = 2;
        return;
      }
      process.exitCode = await runTokenCommand(
        { url, email: opts.email, name: opts.name },
        { input: process.stdin, output: process.stdout, errorOutput: process.stderr },
      );
    });
}
