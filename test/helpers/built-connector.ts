import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The product compiled to JavaScript file by file, as `npm run build` lays out dist/, for the tests
 * that start it as a process of its own (`connector`, the reliability suite's service process):
 * loading it costs half of what tsx does.
 */
export const BUILT_CONNECTOR_DIR = join('node_modules', '.cache', 'connector-test-build');

export async function buildConnector(): Promise<void> {
  await rm(BUILT_CONNECTOR_DIR, { recursive: true, force: true });
  await build({
    entryPoints: [
      'config/**/*.ts',
      'src/**/*.ts',
      'src/**/*.json',
      'jobs/**/*.ts',
      'test/reliability/service-process.ts',
    ],
    loader: { '.json': 'copy' },
    outdir: BUILT_CONNECTOR_DIR,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

/** The built CLI's entry, for `node <entry> …`. */
export const BUILT_CLI = join(BUILT_CONNECTOR_DIR, 'src', 'cli', 'main.js');

/** The reliability suite's service process, built beside the product it imports. */
export const BUILT_SERVICE_PROCESS = join(
  BUILT_CONNECTOR_DIR,
  'test',
  'reliability',
  'service-process.js',
);
