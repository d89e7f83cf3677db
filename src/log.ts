import { type Logger, type LoggerOptions, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino censors wherever they appear in a log object. Secrets first, then the receiver's
 * personal data; order and shipment ids stay visible so an admin can follow one order.
 */
export const redactPaths = [
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers["x-shopify-hmac-sha256"]',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'password',
  '*.password',
  'clientSecret',
  '*.clientSecret',
  'secret',
  '*.secret',
  'hmac',
  '*.hmac',
  'receiver.phone',
  'receiver.email',
  'receiver.address',
  '*.receiver.phone',
  '*.receiver.email',
  '*.receiver.address',
  'phone',
  '*.phone',
  'email',
  '*.email',
  'address',
  '*.address',
  'shippingAddress',
  '*.shippingAddress',
];

export function createLogger(
  options: { level?: LoggerOptions['level']; name?: string } = {},
  destination?: pino.DestinationStream,
): Logger {
  const opts: LoggerOptions = {
    name: options.name ?? 'connector',
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  };
  return destination ? pino(opts, destination) : pino(opts);
}
