import { defineConfig } from 'vitest/config';

/** `npm run test:reliability`: the reliability scenarios at full size, one file at a time. */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The scenarios start processes and load the machine: one file at a time.
    fileParallelism: false,
  },
});
