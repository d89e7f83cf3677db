import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Finds the Redis the tests use, or starts a private one (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Integration tests share one Redis; each uses its own key prefix, so files may run in parallel.
    pool: 'forks',
    // Files mostly wait on servers, Redis and child processes: two at once even on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
