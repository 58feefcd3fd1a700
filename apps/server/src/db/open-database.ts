import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config';
import { connect, type Db } from './connect';
import type { Logger } from '../logging/logger';

const PLAIN_REASONS: Record<string, string> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EACCES: 'this process may not write there',
  EPERM: 'this process may not write there',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

const reasonOf = (error: unknown): string =>
  PLAIN_REASONS[(error as { code?: string }).code ?? ''] ?? (error as Error).message;

/**
 * Makes sure `DATA_DIR` exists and can be written, then opens the configured database.
 * Either failing stops the start with a {@link ConfigError} that names the path and what to
 * do, instead of SQLite's pathless "unable to open database file".
 */
export function openDatabase(config: Config, log?: Logger): Db {
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.accessSync(config.dataDir, fs.constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      `Cannot use DATA_DIR ${config.dataDir}: ${reasonOf(error)}. Set DATA_DIR to a directory this process may write to (it holds the SQLite database, media and mail).`,
      { cause: error },
    );
  }
  const sqliteFile = path.join(config.dataDir, 'mates.db');
  try {
    return connect({ databaseUrl: config.databaseUrl, sqliteFile, log });
  } catch (error) {
    if (config.databaseUrl) throw error;
    throw new ConfigError(
      `Cannot open the SQLite database ${sqliteFile}: ${reasonOf(error)}. Make it a database file this process may read and write, or set DATA_DIR to another directory.`,
      { cause: error },
    );
  }
}
