import { PassThrough } from 'node:stream';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { runTokenCommand } from '../../src/cli/token.js';

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
