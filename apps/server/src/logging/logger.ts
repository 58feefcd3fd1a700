import { pino, type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type pretty from 'pino-pretty';

export type { Logger };

/** Levels `LOG_LEVEL` takes, from the loudest to silence. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How lines are written (`LOG_FORMAT`): JSON, one object a line, or coloured text for people. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** What the logger is built from (read from `LOG_LEVEL` and `LOG_FORMAT`). */
export interface LogConfig {
  level: LogLevel;
  format: LogFormat;
}

/**
 * Fields never written as they are, wherever an object logged carries them: credentials in
 * headers (`token`, `Authorization`, cookies, Stripe's signature) and in bodies or options
 * (passwords, tokens, keys, secrets). The request log writes none of these to begin with;
 * this is the net under any object logged later.
 */
export const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers.token',
  'headers["set-cookie"]',
  'headers["stripe-signature"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers.token',
  '*.headers["set-cookie"]',
  '*.headers["stripe-signature"]',
  'password',
  'newPassword',
  'token',
  'apiKey',
  'secret',
  'secretKey',
  'webhookSecret',
  'clientSecret',
  'verifyTicket',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.apiKey',
  '*.secret',
  '*.secretKey',
  '*.webhookSecret',
  '*.clientSecret',
  '*.verifyTicket',
];

/** Whether `format` means human-readable lines here: `auto` is pretty in development on a terminal. */
export function prettyLogs(
  format: LogFormat,
  env: { nodeEnv?: string; tty?: boolean } = {
    nodeEnv: process.env.NODE_ENV,
    tty: process.stdout.isTTY,
  },
): boolean {
  if (format !== 'auto') return format === 'pretty';
  return env.nodeEnv !== 'production' && env.tty === true;
}

/**
 * The server's logger (pino). Lines are JSON with `time`, `level` (a number, as pino writes
 * it), `msg`, and the fields of the child logger that wrote them (`reqId`, `userId`…), unless
 * {@link prettyLogs} says they are for people (pino-pretty). Tests pass `destination` to read
 * what is written.
 */
export function createLogger(config: LogConfig, destination?: DestinationStream): Logger {
  const options = {
    level: config.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err },
  };
  if (destination) return pino(options, destination);
  if (prettyLogs(config.format)) {
    // Written as it comes (no worker thread): the pretty form is for a terminal, not for speed.
    // Required here, not imported: production logs are JSON and never need it.
    const prettyStream = createRequire(import.meta.url)('pino-pretty') as typeof pretty;
    const stream = prettyStream({
      colorize: true,
      sync: true,
      // One line a record: the request's fields follow its message.
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    });
    return pino(options, stream);
  }
  return pino(options);
}

/** A logger that writes nothing: for commands and parts whose caller wants no log. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
