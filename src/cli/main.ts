#!/usr/bin/env node
import { Command } from 'commander';

const program = new Command()
  .name('connector')
  .description('Shopify → Partner Shipment API connector')
  .showHelpAfterError();

await program.parseAsync(process.argv);
