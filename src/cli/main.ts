#!/usr/bin/env node
import { Command } from 'commander';
import { loadDotEnv } from '../../config/index.js';
import { registerBackfillCommand } from './backfill.js';
import { registerDemoCommand } from './demo.js';
import { registerDriftCommand } from './drift.js';
import { registerEnvironmentCommand } from './environment.js';
import { registerFakeStoreCommand } from './fake-store.js';
import { registerOrderCommand } from './order.js';
import { registerReplayCommand } from './replay.js';
import { registerSandboxCommand } from './sandbox.js';
import { registerSetupCommand } from './setup.js';
import { registerStartCommand } from './start.js';
import { registerStatusCommand } from './status.js';
import { registerTokenCommand } from './token.js';
import { connectorVersion } from './version.js';

loadDotEnv();

const program = new Command()
  .name('connector')
  .description('Shopify → Partner Shipment API connector')
  .version(connectorVersion(), '-V, --version', 'print the version and exit')
  .showHelpAfterError();

registerStartCommand(program);
registerSetupCommand(program);
registerBackfillCommand(program);
registerStatusCommand(program);
registerDriftCommand(program);
registerOrderCommand(program);
registerReplayCommand(program);
registerEnvironmentCommand(program);
registerTokenCommand(program);
registerSandboxCommand(program);
registerFakeStoreCommand(program);
registerDemoCommand(program);

await program.parseAsync(process.argv);
