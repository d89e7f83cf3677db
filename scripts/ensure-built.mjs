// `npm start` runs dist/, which a fresh clone does not have: build it first, or say in one line
// what to run when the build tools are not installed (an `npm install --omit=dev`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

if (!existsSync('dist/src/cli/main.js')) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.error(
      'dist/ is missing: run `npm install` (with dev dependencies) and `npm run build`, then `npm start`.',
    );
    process.exit(1);
  }
  console.error('dist/ is missing: building it once (npm run build)…');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  process.exit(build.status ?? 1);
}
