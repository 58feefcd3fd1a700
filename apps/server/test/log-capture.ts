import { createLogger, type Logger, type LogLevel } from '../src/logging/logger';

/** One line the logger wrote, parsed. */
export interface LogRecord {
  level: number;
  msg: string;
  reqId?: string;
  userId?: string;
  [field: string]: unknown;
}

/**
 * A real pino logger whose destination is kept in memory: `lines` holds each line's message
 * (what the old `log(line)` calls wrote), `records` the parsed JSON lines, `text()` everything
 * written, exactly as an operator's log would hold it.
 */
export function captureLog(
  level: LogLevel = 'debug',
  /** Where the messages go (a test's own array), default a new one. */
  lines: string[] = [],
): {
  logger: Logger;
  lines: string[];
  records: LogRecord[];
  text: () => string;
} {
  const written: string[] = [];
  const records: LogRecord[] = [];
  const logger = createLogger(
    { level, format: 'json' },
    {
      write(chunk: string) {
        written.push(chunk);
        const record = JSON.parse(chunk) as LogRecord;
        records.push(record);
        lines.push(record.msg);
      },
    },
  );
  return { logger, lines, records, text: () => written.join('') };
}
