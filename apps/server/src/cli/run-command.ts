import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
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

/**
 * The one file a SQLite-only command (`backup`, `restore`) is given, after `--help` and the
 * database kind are dealt with: null when it printed its usage; a {@link ConfigError} when the
 * arguments are wrong or the server uses PostgreSQL, whose own tool `onPostgres` names.
 */
export function sqliteFileArgument(
  argv: string[],
  usage: string,
  command: { missing: string; onPostgres: string },
): { file: string; config: Config } | null {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return null;
  }
  if (positionals.length !== 1) throw new ConfigError(`${command.missing}\n\n${usage}`);
  const config = loadConfig();
  if (config.databaseUrl) throw new ConfigError(command.onPostgres);
  return { file: path.resolve(positionals[0]!), config };
}
