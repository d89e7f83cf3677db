#!/usr/bin/env node
import { Command } from 'commander';
import { registerTokenCommand } from './token.js';

const program = new Command()
  .name('connector')
  .description('Shopify → Partner Shipment API connector')
  .showHelpAfterError();

registerTokenCommand(program);

await program.parseAsync(process.argv);
