import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger({ level: 'info' }, stream), lines };
}

describe('logger', () => {
  it('redacts tokens, passwords and authorization headers', () => {
    const { logger, lines } = capture();
    logger.info(
      { token: 'tok_1', password: 'pw', request: { headers: { authorization: 'Bearer tok_1' } } },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('tok_1');
    expect(text).not.toContain('"pw"');
  });

  it("redacts the receiver's phone, email and address but keeps ids", () => {
    const { logger, lines } = capture();
    const child = logger.child({ module: 'test', orderId: '5551234' });
    child.info({
      shipment: {
        reference: '5551234',
        receiver: {
          name: 'A',
          phone: '+4512345678',
          email: 'a@b.dk',
          address: { street: 'Vej 1' },
        },
      },
    });
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('+4512345678');
    expect(text).not.toContain('a@b.dk');
    expect(text).not.toContain('Vej 1');
    expect(text).toContain('5551234');
  });
});
