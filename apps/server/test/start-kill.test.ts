import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect';
import { migrateTo, migrationNames } from '../src/db/migrate';
import type { Database } from '../src/db/schema';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { captureLog } from './log-capture';
import { insertUser, mateRow, POSTGRES_ADMIN_URL, postgresAvailable } from './harness';

// Issue #36, item 1: a server killed (SIGKILL: a power cut, an OOM kill, a container stopped)
// while its first start migrates or seeds, or while it upgrades a database that has data,
// starts again and ends with the whole catalog. The kills are placed by statement, not by
// time: `kill-at-statement.mjs` kills the real server process just before its n-th statement
// to the database, so each moment is the same on every run and machine. One start that is not
// killed counts the statements and gives the expected contents; the kills are spread over them.
const withPostgres = await postgresAvailable();

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const PRELOAD = path.join(import.meta.dirname, 'kill-at-statement.mjs');
/** The migration an upgraded database was left at: the later ones rewrite its data. */
const OLD_MIGRATION = '2026-11-25-0020-jobs-state-index';

const folders: string[] = [];
const tempFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-start-kill-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** Where one start keeps its data: a SQLite file in `dataDir`, or a PostgreSQL database. */
interface Place {
  dataDir: string;
  databaseUrl?: string;
}

const serverEnv = (place: Place): Record<string, string> => ({
  PORT: '0',
  DATA_DIR: place.dataDir,
  DATABASE_URL: place.databaseUrl ?? '',
  MIGRATE: 'auto',
  LLM_PROVIDER: 'openai',
  LLM_BASE_URL: 'http://127.0.0.1:9/v1',
  LLM_API_KEY: 'sk-test',
  SPEECH_PROVIDER: 'none',
  LOG_FORMAT: 'json',
});

/**
 * Starts `src/main.ts` in its own process on `place`, killed before its statement `killAt`
 * (none: killed once it listens). Resolves with whether it was killed before it
 * listened and, when it listened, how many statements its start sent; rejects, with what it printed, when it exits on
 * its own (a start that failed).
 */
function startProcess(place: Place, killAt?: number): Promise<{ killed: boolean; count: number }> {
  const countFile = path.join(tempFolder(), 'count');
  const child = spawn(
    process.execPath,
    ['--conditions=@mates/source', '--import', PRELOAD, '--import', 'tsx', 'src/main.ts'],
    {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        ...serverEnv(place),
        MATES_KILL_AT: String(killAt ?? 0),
        MATES_STATEMENT_COUNT: countFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  let listening = false;
  let count = 0;
  const onData = (data: Buffer) => {
    output.push(data.toString());
    if (!listening && /listening on http/.test(output.join(''))) {
      listening = true;
      count = Number(fs.readFileSync(countFile, 'utf8'));
      // Started: what it committed is what a restart finds.
      child.kill('SIGKILL');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: signal === 'SIGKILL' && !listening, count });
      else reject(new Error(`server exited (${code ?? signal}): ${output.join('')}`));
    }),
  );
}

/** Row counts of every table of the product (PostgreSQL: its `public` schema). */
async function contents(db: Kysely<Database>): Promise<Record<string, number>> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const counts: Record<string, number> = {};
  for (const table of tables) {
    if (table.schema && table.schema !== 'public') continue;
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(
      table.name,
    )}`.execute(db);
    counts[table.name] = Number(rows[0]!.n);
  }
  return counts;
}

/**
 * Starts the server again on `place`, in this process, as a restart would: it must start,
 * answer the catalog, have run every migration, and hold what `expected` holds (when given),
 * every portrait it points at on disk. Answers the contents it found.
 */
async function restart(
  place: Place,
  expected?: Record<string, number>,
): Promise<Record<string, number>> {
  const server = await startServer(loadConfig(serverEnv(place)), captureLog('warn').logger);
  try {
    const answer = await fetch(`${server.url}/api/mate/recommend?pageNum=1&pageSize=12`);
    expect(answer.status).toBe(200);
    const { db } = server.deps;
    const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(ran.rows.map((row) => row.name).sort()).toEqual(migrationNames());
    const found = await contents(db);
    expect(found.mates).toBeGreaterThanOrEqual(40);
    if (expected) expect(found).toEqual(expected);
    const portraits = [
      ...(await db.selectFrom('mates').select('avatar').execute()),
      ...(await db.selectFrom('users').select('avatar').execute()),
    ].flatMap((row) => (row.avatar?.startsWith('/media/') ? [row.avatar] : []));
    for (const url of portraits) expect(fs.existsSync(path.join(place.dataDir, url))).toBe(true);
    return found;
  } finally {
    await server.close();
  }
}

/** Statements to kill before: `count` of them spread evenly, none twice. */
const spread = (total: number, count: number): number[] => [
  ...new Set(
    Array.from({ length: count }, (_, index) =>
      Math.max(1, Math.round((total * (index + 0.5)) / count)),
    ),
  ),
];

/** Data a user of the older version left, some of it rewritten by the later migrations. */
async function oldData(db: Kysely<Database>): Promise<void> {
  await insertUser(db, { id: 'reader', email: 'reader@example.com', nickname: 'reader' });
  await db
    .insertInto('mates')
    .values(mateRow('reader', { id: 'own-mate', avatar: 'https://example.com/own-mate.png' }))
    .execute();
  const at = new Date().toISOString();
  for (const word of ['cafe', 'cafe', 'tea'])
    await sql`insert into search_log (word, created_at) values (${word}, ${at})`.execute(db);
  await sql`insert into mate_chat_log (mate_id, user_id, created_at) values ('own-mate', 'reader', ${at})`.execute(
    db,
  );
}

/** How a dialect makes a new place, or a copy of one. */
interface Places {
  fresh: () => Promise<Place>;
  /** A place at {@link OLD_MIGRATION}, with {@link oldData}: `copy()` gives a new copy of it. */
  old: () => Promise<{ copy: () => Promise<Place> }>;
  close: () => Promise<void>;
}

function sqlitePlaces(): Places {
  return {
    fresh: async () => ({ dataDir: tempFolder() }),
    old: async () => {
      const template = path.join(tempFolder(), 'mates.db');
      const database = connect({ sqliteFile: template });
      await migrateTo(database.db as never, 'sqlite', OLD_MIGRATION);
      await oldData(database.db);
      await database.close();
      return {
        copy: async () => {
          const dataDir = tempFolder();
          fs.copyFileSync(template, path.join(dataDir, 'mates.db'));
          return { dataDir };
        },
      };
    },
    close: async () => {},
  };
}

function postgresPlaces(): Places {
  const made: string[] = [];
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const database = async (template?: string): Promise<string> => {
    const name = `mates_test_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    made.push(name);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    fresh: async () => ({ dataDir: tempFolder(), databaseUrl: await database() }),
    old: async () => {
      const url = await database();
      const old: Db = connect({ databaseUrl: url, sqliteFile: '' });
      await migrateTo(old.db as never, 'postgres', OLD_MIGRATION);
      await oldData(old.db);
      await old.close();
      const template = new URL(url).pathname.slice(1);
      return {
        copy: async () => ({ dataDir: tempFolder(), databaseUrl: await database(template) }),
      };
    },
    close: async () => {
      for (const name of made) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

const DIALECT_PLACES = [
  ['sqlite', sqlitePlaces, { first: 4, upgrade: 4 }],
  // Fewer: PostgreSQL's migrations were transactional already; this keeps them so.
  ['postgres', postgresPlaces, { first: 2, upgrade: 2 }],
] as const;

describe.each(DIALECT_PLACES)('a start killed on %s', (dialect, makePlaces, kills) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let places: Places;
  afterAll(async () => {
    await places?.close();
  });

  it.skipIf(skip)(
    'at any moment of its first start (migrations, seed) starts again with the whole catalog',
    async () => {
      places ??= makePlaces();
      const whole = await places.fresh();
      const { count } = await startProcess(whole);
      const expected = await restart(whole);
      for (const killAt of spread(count, kills.first)) {
        const place = await places.fresh();
        const { killed } = await startProcess(place, killAt);
        expect(killed, `killed before statement ${killAt} of ${count}`).toBe(true);
        await restart(place, expected);
      }
    },
    240_000,
  );

  it.skipIf(skip)(
    'at any moment of an upgrade of a database with data starts again, the data upgraded once',
    async () => {
      places ??= makePlaces();
      const old = await places.old();
      const whole = await old.copy();
      const { count } = await startProcess(whole);
      const expected = await restart(whole);
      expect(expected.search_word_days).toBe(2);
      expect(expected.mate_trend_days).toBe(1);
      for (const killAt of spread(count, kills.upgrade)) {
        const place = await old.copy();
        const { killed } = await startProcess(place, killAt);
        expect(killed, `killed before statement ${killAt} of ${count}`).toBe(true);
        await restart(place, expected);
      }
    },
    240_000,
  );
});
