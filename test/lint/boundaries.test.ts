import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of `npm run lint`, run exactly as that script runs them (same command,
 * same .dependency-cruiser.cjs) on two small trees laid out like this repository.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = join(ROOT, 'test/lint/fixtures');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The arguments of the `lint:boundaries` script, so the test follows any change to it. */
function scriptArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(scripts.lint).toContain('npm run lint:boundaries');
  const [command, ...args] = (scripts['lint:boundaries'] ?? '').split(/\s+/);
  expect(command).toBe('depcruise');
  return args;
}

/** Runs the boundary check in a fixture tree; its exit code and the violations it printed. */
async function checkBoundaries(
  fixture: string,
): Promise<{ exitCode: number; violations: Violation[] }> {
  const args = [DEPCRUISE, ...scriptArgs(), '--config', join(ROOT, '.dependency-cruiser.cjs')];
  const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((done) => {
    execFile(process.execPath, args, { cwd: join(FIXTURES, fixture) }, (error, stdout, stderr) => {
      done({ exitCode: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
  // "error <rule>: <from> → <to>"; a cycle goes on over more lines, its first hop is enough.
  const violations = [...output.matchAll(/error (\S+): (\S+) →\s+(\S+)/g)].map(
    ([, rule = '', from = '', to = '']) => ({
      rule,
      from,
      // Packages resolve through a node_modules somewhere above the fixture: keep the name.
      to: to.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1'),
    }),
  );
  // Guards the parsing: a report in another format must not read as "no violations".
  expect(violations.length === 0, output).toBe(/no dependency violations found/.test(output));
  return { exitCode, violations };
}

describe('import boundaries (npm run lint)', () => {
  it('reports every forbidden import, with its rule, and fails', async () => {
    const { exitCode, violations } = await checkBoundaries('forbidden');

    expect(exitCode).not.toBe(0);
    const byRule = (a: Violation, b: Violation) =>
      `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`);
    expect(violations.sort(byRule)).toEqual(
      [
        { rule: 'partner-not-to-store', from: 'src/partner/client.ts', to: 'src/store/shop.ts' },
        // Types count too: the two clients share nothing.
        { rule: 'store-not-to-partner', from: 'src/store/orders.ts', to: 'src/partner/errors.ts' },
        { rule: 'domain-no-io', from: 'src/domain/rules.ts', to: 'fs' },
        { rule: 'domain-no-io', from: 'src/domain/rules.ts', to: 'ioredis' },
        {
          rule: 'domain-not-to-clients',
          from: 'src/domain/rules.ts',
          to: 'src/partner/schemas.ts',
        },
        {
          rule: 'jobs-only-in-composition-root',
          from: 'src/queue/enqueue.ts',
          to: 'jobs/create/payload.ts',
        },
        {
          rule: 'sandbox-no-runtime-client-code',
          from: 'src/sandbox/partner/server.ts',
          to: 'src/partner/schemas.ts',
        },
        // A value import next to a type-only one from the same module is still a run-time import.
        {
          rule: 'sandbox-no-runtime-client-code',
          from: 'src/sandbox/store/fake.ts',
          to: 'src/store/shop.ts',
        },
        {
          rule: 'not-to-sandbox',
          from: 'config/index.ts',
          to: 'src/sandbox/partner/server.ts',
        },
        {
          rule: 'sides-where-they-run',
          from: 'src/service.ts',
          to: 'src/compose/http-side.ts',
        },
        { rule: 'no-circular', from: 'src/queue/ping.ts', to: 'src/queue/pong.ts' },
        { rule: 'not-to-unresolvable', from: 'src/records/record.ts', to: './nowhere.js' },
      ].sort(byRule),
    );
  });

  it('passes a tree that keeps to them: composition root, sides imported where they run, type-only sandbox imports, cli', async () => {
    const { exitCode, violations } = await checkBoundaries('clean');

    expect(violations).toEqual([]);
    expect(exitCode).toBe(0);
  });
});
