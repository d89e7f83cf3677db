import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('connector --version', () => {
  it.each(['--version', '-V'])('%s prints the package version and exits 0', async (flag) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', flag], {
      env: { PATH: process.env.PATH },
    });
    expect(stdout.trim()).toBe(version);
  });
});
