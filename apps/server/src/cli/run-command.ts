import { ConfigError } from '../config';
import { codeOf, wasNotReached } from '../http/network-errors';

/** One line for what an operator can act on (a setting, an argument, a database out of reach). */
function plainReason(error: unknown): string | null {
  if (error instanceof ConfigError) return error.message;
  if (codeOf(error)?.startsWith('ERR_PARSE_ARGS')) return (error as Error).message;
  if (wasNotReached(error))
    return `cannot reach the database (${codeOf(error)}); check DATABASE_URL and that PostgreSQL is running`;
  if (error instanceof Error && error.message.startsWith('Database migration failed'))
    return error.message;
  return null;
}

/**
 * Runs a command's `main` with the process's arguments and exits with its status. What the
 * operator can act on is one `[mates] …` line on stderr; anything else is reported in full.
 */
export function runCommand(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const reason = plainReason(error);
      console.error(reason === null ? error : `[mates] ${reason}`);
      process.exit(1);
    },
  );
}

/** Writes one line of a command's report on stdout. */
export const say = (line: string): void => console.log(`[mates] ${line}`);

/** Megabytes, one decimal, for a report. */
export const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;
