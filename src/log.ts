import { type Logger, type LoggerOptions, pino } from 'pino';
import { lenientSetting } from '../config/index.js';
import { prettyStream } from './log-pretty.js';

export type { Logger } from 'pino';

/** At the top and one level down. Order and shipment ids stay visible so an admin can follow one. */
const redactPaths = [
  ...[
    'authorization',
    'token',
    'accessToken',
    'password',
    'clientSecret',
    'secret',
    'hmac',
    'phone',
    'email',
    'address',
    'shippingAddress',
  ].flatMap((key) => [key, `*.${key}`]),
  '*.headers.authorization',
  '*.headers["x-shopify-hmac-sha256"]',
  ...['phone', 'email', 'address'].flatMap((key) => [`receiver.${key}`, `*.receiver.${key}`]),
];

export type LogFormat = 'auto' | 'json' | 'pretty';

/** A given destination (tests) gets JSON unless `format: 'pretty'` is passed. */
export function createLogger(
  options: Pick<LoggerOptions, 'level' | 'name'> & { format?: LogFormat; colour?: boolean } = {},
  destination?: pino.DestinationStream,
): Logger {
  const opts: LoggerOptions = {
    name: options.name ?? 'connector',
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  };
  if (destination) {
    return pino(opts, options.format === 'pretty' ? prettyStream(destination) : destination);
  }
  if (stdoutLogFormat(options.format) === 'json') return pino(opts);
  const colour = options.colour ?? Boolean(process.stdout.isTTY);
  return pino(opts, prettyStream({ write: (text) => process.stdout.write(text), isTTY: colour }));
}

export function stdoutLogFormat(format: LogFormat = lenientSetting('LOG_FORMAT') ?? 'auto') {
  return format === 'pretty' || (format === 'auto' && Boolean(process.stdout.isTTY))
    ? 'pretty'
    : 'json';
}
