#!/usr/bin/env node
import { Command } from 'commander';
import { loadDotEnv } from '../../config/index.js';
import { connectorVersion } from './version.js';

/** Only the command being run is loaded, so `connector start` carries no sandbox or demo code. */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  start: async () => (await import('./start.js')).registerStartCommand,
  setup: async () => (await import('./setup.js')).registerSetupCommand,
  backfill: async () => (await import('./backfill.js')).registerBackfillCommand,
  status: async () => (await import('./status.js')).registerStatusCommand,
  drift: async () => (await import('./drift.js')).registerDriftCommand,
  order: async () => (await import('./order.js')).registerOrderCommand,
  replay: async () => (await import('./replay.js')).registerReplayCommand,
  environment: async () => (await import('./environment.js')).registerEnvironmentCommand,
  audit: async () => (await import('./audit.js')).registerAuditCommand,
  token: async () => (await import('./token.js')).registerTokenCommand,
  sandbox: async () => (await import('./sandbox.js')).registerSandboxCommand,
  'fake-store': async () => (await import('./fake-store.js')).registerFakeStoreCommand,
  demo: async () => (await import('./demo.js')).registerDemoCommand,
};

function takeEnvFile(argv: string[]): string | undefined {
  const at = argv.findIndex(
    (arg, i) => i >= 2 && (arg === '--env-file' || arg.startsWith('--env-file=')),
  );
  if (at === -1) return undefined;
  const flag = argv[at]!;
  const path = flag === '--env-file' ? (argv[at + 1] ?? '') : flag.slice('--env-file='.length);
  argv.splice(at, flag === '--env-file' ? 2 : 1);
  return path;
}

const envFile = takeEnvFile(process.argv);
if (envFile === undefined) loadDotEnv();
else if (!envFile || !loadDotEnv(envFile)) {
  console.error(`--env-file: no such file: ${envFile || '(no path given)'}`);
  process.exit(66);
}

const program = new Command()
  .name('connector')
  .description('Shopify → Partner Shipment API connector')
  .version(connectorVersion(), '-V, --version', 'print the version and exit')
  .option('--env-file <path>', 'read the settings from this file instead of .env')
  .showHelpAfterError();

const named = process.argv[2] ?? '';
const wanted = Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
for (const name of wanted) (await COMMANDS[name]!())(program);

await program.parseAsync(process.argv);
