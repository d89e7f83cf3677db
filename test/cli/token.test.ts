import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { runTokenCommand } from '../../src/cli/token.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { builtCli } from '../helpers/built-connector.js';
import { waitUntil } from '../helpers/shipment-stack.js';

const URL = 'https://partner.test/api/v1';

function io(stdin: string) {
  const input = new PassThrough();
  input.end(stdin);
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => {
    const s = new PassThrough();
    s.on('data', (c) => into.push(String(c)));
    return s;
  };
  return { streams: { input, output: sink(out), errorOutput: sink(err) }, out, err };
}

afterEach(() => nock.cleanAll());

describe('connector token', () => {
  it('reads the password from stdin, calls POST /token once and prints the token', async () => {
    const scope = nock('https://partner.test')
      .post('/api/v1/token', { email: 'a@b.dk', password: 'pw-1', name: 'shop' })
      .once()
      .reply(201, {
        token: 'tok_fresh',
        token_type: 'Bearer',
        account: 'Demo',
        created_at: '2026-11-22T10:00:00+01:00',
      });
    const { streams, out } = io('pw-1\n');

    const code = await runTokenCommand({ url: URL, email: 'a@b.dk', name: 'shop' }, streams);

    expect(code).toBe(0);
    expect(scope.isDone()).toBe(true);
    const text = out.join('');
    expect(text).toContain('tok_fresh');
    expect(text).toContain('PARTNER_API_TOKEN');
    expect(text).not.toContain('pw-1');
  });

  it('fails with a clear message on wrong credentials, echoing no password', async () => {
    nock('https://partner.test')
      .post('/api/v1/token')
      .reply(401, { success: false, message: 'Invalid credentials.' });
    const { streams, out, err } = io('wrong-pw\n');

    const code = await runTokenCommand({ url: URL, email: 'a@b.dk', name: 'shop' }, streams);

    expect(code).toBe(1);
    expect(err.join('')).toContain('rejected the credentials');
    expect(out.join('') + err.join('')).not.toContain('wrong-pw');
  });

  it('refuses an empty password without calling the API', async () => {
    const { streams, err } = io('\n');
    const code = await runTokenCommand({ url: URL, email: 'a@b.dk', name: 'shop' }, streams);
    expect(code).toBe(2);
    expect(err.join('')).toContain('No password');
  });
});

describe('connector token at a terminal', () => {
  let sandbox: PartnerSandbox | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    child?.kill('SIGKILL');
    await sandbox?.close();
  });

  it('prompts for the password and never shows it on the terminal', async () => {
    sandbox = await startPartnerSandbox();
    // util-linux `script` runs the command on a real pseudo-terminal, as a person's shell would.
    const command = [
      shellQuote(process.execPath),
      `${shellQuote(builtCli())} token`,
      `--email demo@sandbox.local --url ${sandbox.url}`,
    ].join(' ');
    child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let terminal = '';
    child.stdout!.on('data', (chunk) => {
      terminal += String(chunk);
    });
    const exited = once(child, 'exit');

    await waitUntil(() => terminal.includes('Password:'), {
      what: 'the prompt',
      timeoutMs: 15_000,
    });
    child.stdin!.write('sandbox-password\r');
    const [code] = await exited;

    expect(code).toBe(0);
    expect(terminal).toContain('sbx_');
    expect(terminal).toContain('PARTNER_API_TOKEN');
    expect(terminal).not.toContain('sandbox-password');
  });
});

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
