import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { ConfigError } from '../config';

/** Whatever better-sqlite3 says when a file is not a database, or a damaged one. */
const NOT_A_DATABASE = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** What a backup or restore copied. */
export interface CopyReport {
  /** Size of the written file. */
  bytes: number;
  /** Database pages copied. */
  pages: number;
}

/**
 * Copies the open database `from` into the new file `to` with SQLite's online backup API, in
 * one step: one read transaction sees the whole database as it was when the step began, and in
 * WAL mode the server goes on writing meanwhile. (Steps of a few pages each would start over
 * whenever another connection wrote between two of them, which a busy server always does.)
 */
async function copyDatabase(from: SqliteDatabase.Database, to: string): Promise<number> {
  const { totalPages } = await from.backup(to, { progress: () => 0x7fffffff });
  return totalPages;
}

/**
 * Opens `file`, answering a {@link ConfigError} where it is not an intact SQLite database
 * (`check`: read it all to be sure; otherwise only its first page is read).
 */
function openIntact(
  file: string,
  what: 'database' | 'backup',
  check: boolean,
): SqliteDatabase.Database {
  let db: SqliteDatabase.Database | undefined;
  try {
    db = new SqliteDatabase(file, { fileMustExist: true, timeout: 5000 });
    const result = check
      ? db.pragma('quick_check', { simple: true })
      : (db.pragma('schema_version', { simple: true }), 'ok');
    if (result !== 'ok') throw new ConfigError(`The ${what} ${file} is damaged: ${String(result)}`);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof ConfigError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (NOT_A_DATABASE.has(code))
      throw new ConfigError(`The ${what} ${file} is not an intact SQLite database (${code})`);
    if (code === 'SQLITE_CANTOPEN' || !fs.existsSync(file))
      throw new ConfigError(`There is no ${what} at ${file}`);
    throw error;
  }
}

/**
 * Backs the SQLite database `source` up into `target`, safe while a server uses it: written
 * beside `target` first, checked, made one self-contained file (rollback journal, no `-wal`),
 * then renamed over `target`, so a failed backup never leaves a half file under that name.
 */
export async function backupSqlite(source: string, target: string): Promise<CopyReport> {
  if (!fs.existsSync(path.dirname(path.resolve(target))))
    throw new ConfigError(`The folder of ${target} does not exist; create it first`);
  if (fs.statSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw new ConfigError(`${target} is a folder; name the file to write in it`);
  if (path.resolve(target) === path.resolve(source))
    throw new ConfigError(`${target} is the database itself; name another file`);
  const partial = `${target}.partial-${process.pid}`;
  try {
    const db = openIntact(source, 'database', false);
    let pages: number;
    try {
      pages = await copyDatabase(db, partial);
    } finally {
      db.close();
    }
    const copy = new SqliteDatabase(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok')
        throw new Error(`the backup failed its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
    fs.renameSync(partial, target);
    return { bytes: fs.statSync(target).size, pages };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * Makes sure no other connection (a running server, another command) has the SQLite file
 * `file` open, and that everything written to it is in the file itself (its `-wal` folded in
 * and emptied). Throws a {@link ConfigError} saying to stop the server otherwise.
 */
export function takeOverSqlite(file: string): void {
  if (!fs.existsSync(file)) return;
  const db = new SqliteDatabase(file, { fileMustExist: true, timeout: 0 });
  try {
    // An exclusive lock is refused while any other connection has the file open, even idle.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new ConfigError(
        `The database ${file} is in use by a running server or command; stop it, then try again`,
      );
    throw error;
  } finally {
    db.close();
  }
}

/** What {@link restoreSqlite} did. */
export interface RestoreReport extends CopyReport {
  /** Where the database that was replaced now lies, or `null` when there was none. */
  keptAs: string | null;
  /** Migrations the restored database has not run (a backup from an older version). */
  pending: string[];
}

/**
 * Puts the backup `backup` in place of the SQLite database `target`, which no server may have
 * open. Refuses a file that is not an intact Mates database, or one written by a newer version
 * (a migration `knownMigrations` lacks). The replaced database is kept beside it, renamed.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  knownMigrations: string[],
): Promise<RestoreReport> {
  const source = openIntact(backup, 'backup', true);
  const restoring = `${target}.restoring-${process.pid}`;
  try {
    const hasMigrations = source
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!hasMigrations)
      throw new ConfigError(`The backup ${backup} is not a Mates database (it has no migrations)`);
    const ran = (source.prepare('select name from kysely_migration').all() as { name: string }[])
      .map((row) => row.name)
      .sort();
    const unknown = ran.filter((name) => !knownMigrations.includes(name));
    if (unknown.length)
      throw new ConfigError(
        `The backup ${backup} comes from a newer version of Mates (its migration ${unknown[0]} is unknown here); restore it with that version`,
      );
    takeOverSqlite(target);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const pages = await copyDatabase(source, restoring);
    let keptAs: string | null = null;
    if (fs.existsSync(target)) {
      keptAs = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(target, keptAs);
    }
    // Emptied by takeOverSqlite; a stale -wal must never be replayed onto the restored file.
    fs.rmSync(`${target}-wal`, { force: true });
    fs.rmSync(`${target}-shm`, { force: true });
    fs.renameSync(restoring, target);
    return {
      bytes: fs.statSync(target).size,
      pages,
      keptAs,
      pending: knownMigrations.filter((name) => !ran.includes(name)),
    };
  } finally {
    source.close();
    fs.rmSync(restoring, { force: true });
  }
}
