import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../src/log-pretty.js';

const run = promisify(execFile);

/** A process that logs two lines through createLogger, as every command does. */
const SCRIPT = `import { createLogger } from './src/log.ts';
const log = createLogger({ name: 'connector' }).child({ module: 'partner' });
log.info({ orderId: '5551234', token: 'tok_secret' }, 'shipment registered');
log.error({ err: new Error('boom') }, 'job failed');`;
const NODE = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', SCRIPT];

async function output(env: Record<string, string>, tty = false): Promise<string> {
  const options = { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 };
  if (!tty) return (await run(NODE[0]!, NODE.slice(1), options)).stdout;
  // util-linux `script` gives the command a terminal, as a person's shell would.
  const quoted = NODE.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return (await run('script', ['-qec', quoted, '/dev/null'], options)).stdout;
}

describe('log format', () => {
  it('writes JSON lines when stdout is not a terminal', async () => {
    const lines = (await output({})).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'shipment registered', orderId: '5551234' });
  });

  it('writes readable lines on a terminal, redacted, and JSON there when LOG_FORMAT=json', async () => {
    const pretty = await output({}, true);
    expect(pretty).toMatch(/INFO .*connector\/partner: shipment registered {2}orderId=5551234/);
    expect(pretty).toContain('token=[redacted]');
    expect(pretty).not.toContain('tok_secret');
    expect(pretty).toMatch(/Error: boom\r?\n\s+at /);
    expect(pretty).not.toContain('{"level"');

    const json = await output({ LOG_FORMAT: 'json' }, true);
    expect(json).toContain('"msg":"shipment registered"');
  }, 60_000);

  it('writes readable lines into a pipe when LOG_FORMAT=pretty', async () => {
    expect(await output({ LOG_FORMAT: 'pretty' })).toMatch(/INFO .*shipment registered/);
  });

  it('leaves a line that is not JSON as it is', () => {
    expect(formatLogLine('plain text')).toBe('plain text');
  });
});
