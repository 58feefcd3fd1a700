import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { preparedQuery } from '../src/db/prepared-query';
import { freshDatabase, insertUser, postgresAvailable } from './harness';

// #38: on PostgreSQL the chat path's statements are named, parsed and planned once per
// connection; a migration that changes what a named statement's rows hold must not break it.
const withPostgres = await postgresAvailable();

const userById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('users').selectAll().where('id', '=', v.id),
);

describe.skipIf(!withPostgres)('named statements on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Kysely<Database>;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    db = database.db;
    await insertUser(db, { id: 'ana', email: 'ana@example.test' });
  });
  afterAll(async () => database?.drop());

  const prepared = (on: Kysely<Database>) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`
      .execute(on)
      .then((result) => result.rows);

  it('prepares a hot statement once per connection, and leaves other queries unnamed', async () => {
    await db.connection().execute(async (connection) => {
      await userById(connection, { id: 'ana' });
      await userById(connection, { id: 'ana' });
      await connection
        .selectFrom('users')
        .select('email')
        .where('id', 'in', ['ana', 'bo'])
        .execute();
      const statements = await prepared(connection);
      const mine = statements.filter((row) => row.statement.includes('from "users"'));
      expect(mine).toHaveLength(1);
      expect(mine[0]!.name).toMatch(/^mates_[0-9a-f]{16}$/);
      expect(mine[0]!.statement).toContain('select * from "users"');
    });
  });

  it('keeps answering after a migration changes the rows a named statement returns', async () => {
    await db.connection().execute(async (connection) => {
      expect((await userById(connection, { id: 'ana' })).rows[0]).not.toHaveProperty('extra');
      await sql`alter table users add column extra text default 'new'`.execute(db);
      try {
        // Outside a transaction: run again unnamed, at once.
        const [after] = (await userById(connection, { id: 'ana' })).rows as unknown as {
          extra: string;
        }[];
        expect(after!.extra).toBe('new');
        // And on: the connection no longer uses the plan that does not fit.
        await sql`alter table users drop column extra`.execute(db);
        expect((await userById(connection, { id: 'ana' })).rows[0]).not.toHaveProperty('extra');
      } finally {
        await sql`alter table users drop column if exists extra`.execute(db);
      }
    });
  });
});
