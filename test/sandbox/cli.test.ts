import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/built-connector.js';
import { DEMO_TOKEN } from './helpers.js';

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function runSandbox(args: string[]) {
  child = spawn(process.execPath, [builtCli(), 'sandbox', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return { process: child, output: () => stdout, errors: () => stderr };
}

async function waitFor(predicate: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('connector sandbox', () => {
  it('prints the base URL and seeded tokens, serves the API, and closes cleanly on SIGTERM', async () => {
    const run = runSandbox(['--port', '0', '--rate-limit', '2', '--rate-window-ms', '60000']);
    // The lines may arrive in several chunks: wait for the last one.
    await waitFor(
      () => /PARTNER_API_URL=\S+/.test(run.output()) && run.output().includes('sbx_other_token'),
    );
    const url = /PARTNER_API_URL=(\S+)/.exec(run.output())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(run.output()).toContain('sbx_demo_token');
    expect(run.output()).toContain('sbx_other_token');

    const headers = { authorization: `Bearer ${DEMO_TOKEN}` };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await fetch(`${url}/shipments`, { headers })).status);
    expect(statuses).toEqual([200, 200, 429]);

    run.process.kill('SIGTERM');
    const [code] = await once(run.process, 'exit');
    expect(code).toBe(0);
    expect(run.output()).toContain('SIGTERM received');
  });

  it('refuses an invalid option with a message and a non-zero exit', async () => {
    const run = runSandbox(['--rate-limit', '0']);
    const [code] = await once(run.process, 'exit');
    expect(code).not.toBe(0);
    expect(run.errors()).toMatch(/rateLimit|rate/i);
  });
});
