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

/** Bytes of JSON lines gathered before they are written out together (see {@link logDestination}). */
const LOG_WRITE_BYTES = 4096;
/** The longest a line waits for those bytes before it is written anyway. */
const LOG_FLUSH_MS = 250;
/** The most bytes of lines held while stdout takes none (its reader stalled). */
const LOG_HELD_BYTES = 16 * 1024 * 1024;

/**
 * Where the server's JSON lines go (`dest`: a file descriptor, stdout by default, or a path):
 * pino's asynchronous destination (sonic-boom). It gathers lines and writes them
 * {@link LOG_WRITE_BYTES} at a time, and whatever has gathered every {@link LOG_FLUSH_MS}
 * (sonic-boom's own `periodicFlush`). Into a pipe, as a service's stdout is under Docker or
 * systemd, writing each request's line on its own and waiting for the write cost about 4 µs of
 * a cached catalog call's 30–40 (#20); and a stdout whose reader stalls no longer stalls the
 * server. Pino writes what is left when the process exits (`process.exit`, a fatal error, the
 * end of a stop); a process killed outright (SIGKILL, out of memory) loses at most the lines of
 * its last quarter second.
 */
export function logDestination(dest: number | string = 1): DestinationStream {
  return pino.destination({
    dest,
    sync: false,
    minLength: LOG_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    // A reader stalled for good: lines past this are dropped, not held until memory runs out.
    maxLength: LOG_HELD_BYTES,
  });
}

/**
 * The server's logger (pino). Lines are JSON with `time`, `level` (a number, as pino writes
 * it), `msg`, and the fields of the child logger that wrote them (`reqId`, `userId`…), written
 * to stdout through {@link logDestination}, unless {@link prettyLogs} says they are for people
 * (pino-pretty). Tests pass `destination` to read what is written.
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
  return pino(options, logDestination());
}

/**
 * A child of `parent` with `bindings`, made the first time it is used. Pino redacts a child's
 * fields as it makes it (its wildcard paths walk them): about 40 µs and 10 KB of garbage a
 * child under load, twice for every request (one with its id, one with its user), while most
 * requests log nothing but their answered line, which has its own logger. Everything a logger
 * has (its methods, `level`, `child`) goes to the child, made then.
 */
export function lazyChild(parent: Logger, bindings: pino.Bindings): Logger {
  let child: Logger | undefined;
  const made = () => (child ??= parent.child(bindings));
  return new Proxy({} as Logger, {
    get(_, key) {
      const logger = made();
      const value: unknown = Reflect.get(logger, key, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set: (_, key, value) => Reflect.set(made(), key, value),
    has: (_, key) => Reflect.has(made(), key),
  });
}

/** A logger that writes nothing: for commands and parts whose caller wants no log. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
