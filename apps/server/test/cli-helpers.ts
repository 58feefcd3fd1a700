import { execFile } from 'node:child_process';
import path from 'node:path';

const SERVER = path.resolve(import.meta.dirname, '..');

/** What a finished command printed, and its exit status. */
export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `src/<entry>` (a command of `src/cli/`, or `main.ts`) in a process of its own, as an
 * operator would run its built file, with `env` over the test's environment (the database
 * settings cleared first, so only `env` chooses them). Resolves when it exits.
 */
export function runCommand(
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@mates/source', '--import', 'tsx', path.join('src', entry), ...args],
      {
        cwd: SERVER,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', MIGRATE: '', ...env },
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const status = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}
