import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The product compiled to JavaScript file by file, as `npm run build` lays out dist/, for the tests
 * that start it as a process of its own (`connector`, the reliability suite's service process):
 * such a process starts without tsx's loader. Each run builds its own, inside node_modules so that
 * the packages resolve, and removes it when it ends; a run killed before its end leaves its copy,
 * removed by the next run.
 */
export async function buildConnector(): Promise<() => Promise<void>> {
  const cache = join('node_modules', '.cache');
  await removeLeftBuilds(cache);
  const dir = join(cache, `${BUILD_DIR}${process.pid}`);
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

const BUILD_DIR = 'connector-test-build-';

/** The copies of runs whose process is gone: one that still runs keeps its own. */
async function removeLeftBuilds(cache: string): Promise<void> {
  const names = await readdir(cache).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(BUILD_DIR)) continue;
    const pid = Number(name.slice(BUILD_DIR.length));
    if (Number.isInteger(pid) && !isRunning(pid)) {
      await rm(join(cache, name), { recursive: true, force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A built file, e.g. `src/cli/main.js`. */
export function built(file: string): string {
  const dir = process.env.CONNECTOR_TEST_BUILD;
  if (!dir) throw new Error('No built connector: test/global-setup.ts builds it for each run');
  return join(dir, file);
}

/** `connector`, for `node <it> …`. */
export const builtCli = () => built('src/cli/main.js');
