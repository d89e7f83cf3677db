import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The product compiled to JavaScript file by file, as `npm run build` lays out dist/, for the tests
 * that start it as a process of its own (`connector`, the reliability suite's service process):
 * such a process starts without tsx's loader. Each run builds its own, inside node_modules so that
 * the packages resolve, and removes it when it ends.
 */
export async function buildConnector(): Promise<() => Promise<void>> {
  const dir = join('node_modules', '.cache', `connector-test-build-${process.pid}`);
  await build({
    entryPoints: [
      'config/**/*.ts',
      'src/**/*.ts',
      'src/**/*.json',
      'jobs/**/*.ts',
      'test/reliability/service-process.ts',
    ],
    loader: { '.json': 'copy' },
    outdir: dir,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  // Test workers inherit the environment.
  process.env.CONNECTOR_TEST_BUILD = dir;
  return () => rm(dir, { recursive: true, force: true });
}

/** A built file, e.g. `src/cli/main.js`. */
export function built(file: string): string {
  const dir = process.env.CONNECTOR_TEST_BUILD;
  if (!dir) throw new Error('No built connector: test/global-setup.ts builds it for each run');
  return join(dir, file);
}

/** `connector`, for `node <it> …`. */
export const builtCli = () => built('src/cli/main.js');
