import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect';
import { migrateTo, migrationNames, pendingMigrations } from '../src/db/migrate';
import { migrateOnStart, UnmigratedDatabase } from '../src/db/migrate-on-start';
import { DIALECTS, emptyDatabase, postgresAvailable } from './harness';
import { runCommand } from './cli-helpers';

// Issue #18: migrations run separately from start (`migrate`), start refuses a database left
// behind unless MIGRATE lets it migrate, and `seed` fills the catalog once.
const withPostgres = await postgresAvailable();
const ALL = migrationNames();
const LAST = ALL.at(-1)!;
const BEFORE_LAST = ALL.at(-2)!;
/** Each command is a process of its own that compiles the server's source with tsx. */
const SPAWNS = { timeout: 120_000 };

/** An empty database, and the environment that points a command at it. */
interface Target {
  env: Record<string, string>;
  /** How the commands name it. */
  where: string;
  /** The test's own connection to it. */
  db: () => Db['db'];
  /** Closes the test's connection where a command needs the database alone (SQLite). */
  release: () => Promise<void>;
  drop: () => Promise<void>;
}

/** An empty database of `dialect` with the environment that points a command at it. */
async function emptyTarget(dialect: 'sqlite' | 'postgres'): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-commands-'));
  if (dialect === 'sqlite') {
    const open = (): Db => connect({ sqliteFile: path.join(dataDir, 'mates.db') });
    let database: Db | null = null;
    return {
      env: { DATA_DIR: dataDir },
      where: `SQLite ${path.join(dataDir, 'mates.db')}`,
      db: () => (database ??= open()).db,
      release: async () => {
        await database?.close();
        database = null;
      },
      drop: async () => {
        await database?.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = await emptyDatabase('postgres');
  const url = new URL(database.url!);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url! },
    where: `PostgreSQL ${url.host}${url.pathname}`,
    db: () => database.db,
    release: async () => {},
    drop: async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DIALECTS)('operator commands on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const target = async () => {
    const made = await emptyTarget(dialect);
    cleanups.push(made.drop);
    return made;
  };
  const skip = dialect === 'postgres' && !withPostgres;

  it.skipIf(skip)(
    'migrate runs what is pending and says which; --check only tells',
    SPAWNS,
    async () => {
      const { env, where, db, release } = await target();
      const check = await runCommand('cli/migrate.ts', env, ['--check']);
      expect(check.status).toBe(1);
      expect(check.stdout).toBe(
        `[mates] ${where} has ${ALL.length} migration(s) to run:${ALL.map((name) => `\n  ${name}`).join('')}\n`,
      );
      expect(await pendingMigrations(db() as never)).toEqual(ALL);
      await release();

      const run = await runCommand('cli/migrate.ts', env);
      expect(run).toMatchObject({ status: 0, stderr: '' });
      expect(run.stdout).toBe(
        `[mates] ${where}: ran ${ALL.length} migration(s):${ALL.map((name) => `\n  ${name}`).join('')}\n`,
      );
      expect(await pendingMigrations(db() as never)).toEqual([]);
      await release();

      expect(await runCommand('cli/migrate.ts', env)).toEqual({
        status: 0,
        stdout: `[mates] ${where} was already up to date (${ALL.length} migrations); nothing ran\n`,
        stderr: '',
      });
      expect(await runCommand('cli/migrate.ts', env, ['--check'])).toMatchObject({
        status: 0,
        stdout: `[mates] ${where} is up to date (${ALL.length} migrations)\n`,
      });
      expect(await runCommand('cli/migrate.ts', env, ['--all'])).toMatchObject({
        status: 1,
        stderr: expect.stringMatching(/^\[mates\] Unknown option '--all'/),
      });
    },
  );

  it.skipIf(skip)(
    'start refuses a database left behind, in one line naming migrate',
    SPAWNS,
    async () => {
      const { env, db, release } = await target();
      await migrateTo(db() as never, dialect, BEFORE_LAST);
      await release();
      // The default on PostgreSQL (`new`) migrates only a database that has run none; on
      // SQLite the default is `auto`, so the refusal is asked for.
      const start = await runCommand('main.ts', {
        ...env,
        PORT: '0',
        ...(dialect === 'sqlite' ? { MIGRATE: 'off' } : {}),
      });
      expect(start).toEqual({
        status: 1,
        stdout: '',
        stderr: `[mates] The database is not up to date: 1 migration(s) to run, the first ${LAST}. Run pnpm migrate (from the repository root; node dist/migrate.js in a deployed server folder), then start again; or set MIGRATE=auto to migrate at start.\n`,
      });
      expect(await pendingMigrations(db() as never)).toEqual([LAST]);
    },
  );

  it.skipIf(skip)(
    'MIGRATE: auto runs all, new only on a database without any, off none',
    SPAWNS,
    async () => {
      const { db } = await target();
      await expect(migrateOnStart(db() as never, dialect, 'off')).rejects.toThrow(
        UnmigratedDatabase,
      );
      await migrateTo(db() as never, dialect, BEFORE_LAST);
      const behind = migrateOnStart(db() as never, dialect, 'new');
      await expect(behind).rejects.toThrow(UnmigratedDatabase);
      await expect(behind).rejects.toMatchObject({ pending: [LAST] });
      expect(await migrateOnStart(db() as never, dialect, 'auto')).toEqual([LAST]);
      expect(await migrateOnStart(db() as never, dialect, 'off')).toEqual([]);

      const fresh = await target();
      expect(await migrateOnStart(fresh.db() as never, dialect, 'new')).toEqual(ALL);
      expect(await migrateOnStart(fresh.db() as never, dialect, 'new')).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'seed fills an empty catalog once; a second run changes nothing',
    SPAWNS,
    async () => {
      const { env, where, db, release } = await target();
      const first = await runCommand('cli/seed.ts', env);
      expect(first).toEqual({
        status: 0,
        stdout: `[mates] ${where}: seeded 40 mates by 6 creators and 32 tags\n`,
        stderr: '',
      });
      const count = async () => {
        const row = await db()
          .selectFrom('mates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      };
      expect(await count()).toBe(40);
      await release();
      expect(await runCommand('cli/seed.ts', env)).toEqual({
        status: 0,
        stdout: `[mates] ${where}: the catalog is already seeded (40 mates); nothing changed\n`,
        stderr: '',
      });
      expect(await count()).toBe(40);
    },
  );

  it.skipIf(skip)('seed follows MIGRATE: it refuses a database left behind', SPAWNS, async () => {
    const { env, db, release } = await target();
    await migrateTo(db() as never, dialect, BEFORE_LAST);
    await release();
    const run = await runCommand('cli/seed.ts', { ...env, MIGRATE: 'off' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^\[mates\] The database is not up to date: 1 migration\(s\)/);
    expect(await pendingMigrations(db() as never)).toEqual([LAST]);
  });
});

describe('migrate on SQLite', () => {
  it('refuses while a server has the file open, and changes nothing', SPAWNS, async () => {
    const { env, db, drop } = await emptyTarget('sqlite');
    try {
      await migrateTo(db() as never, 'sqlite', BEFORE_LAST);
      // The test's connection stands for the running server.
      const run = await runCommand('cli/migrate.ts', env);
      expect(run).toEqual({
        status: 1,
        stdout: '',
        stderr: `[mates] The database ${path.join(env.DATA_DIR!, 'mates.db')} is in use by a running server or command; stop it, then try again\n`,
      });
      expect(await pendingMigrations(db() as never)).toEqual([LAST]);
    } finally {
      await drop();
    }
  });

  it('says when PostgreSQL cannot be reached, in one line', SPAWNS, async () => {
    const run = await runCommand('cli/migrate.ts', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:47409/none',
    });
    expect(run).toMatchObject({
      status: 1,
      stderr:
        '[mates] cannot reach the database (ECONNREFUSED); check DATABASE_URL and that PostgreSQL is running\n',
    });
  });
});
