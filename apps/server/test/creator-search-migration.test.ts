import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import { matchingMates } from '../src/catalog/listing-repository';
import { DIALECTS, emptyDatabase, insertUser, mateRow, postgresAvailable } from './harness';

// Mates found by their creator's name, on a database written before mates carried it: the
// name is filled in for every mate already there, kept for mates made after and renames, and
// SQLite's search index stays in step with its table.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('the creator search migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'finds the mates made before it and after it by their creator’s name, as it is now',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-30-0041-ledger-reason-keys');
        await insertUser(db, { id: 'ada', email: 'ada@example.com', nickname: 'Ada Fenwright' });
        await insertUser(db, { id: 'bob', email: 'bob@example.com', nickname: 'Bob Marrow' });
        const publicMate = (creatorId: string, id: string) =>
          mateRow(creatorId, { id, name: `Mate ${id}`, visibility: 'public' });
        await db
          .insertInto('mates')
          .values([publicMate('ada', 'a1'), publicMate('bob', 'b1')])
          .execute();
        await migrateToLatest(db as never, dialect);
        await db.insertInto('mates').values(publicMate('ada', 'a2')).execute();
        const found = async (...words: string[]) =>
          (await matchingMates(db, dialect, { sort: 'relevance' }, words, null)).list
            .map((mate) => mate.mateId)
            .sort();
        expect(await found('fenwright')).toEqual(['a1', 'a2']);
        expect(await found('marrow')).toEqual(['b1']);
        expect(await found('fenw', 'a2')).toEqual(['a2']);

        await db
          .updateTable('users')
          .set({ nickname: 'Ada Quellwood' })
          .where('id', '=', 'ada')
          .execute();
        expect(await found('quellwood')).toEqual(['a1', 'a2']);
        expect(await found('fenwright')).toEqual([]);
        // Given to another creator, a mate is found by theirs alone.
        await db.updateTable('mates').set({ creator_id: 'bob' }).where('id', '=', 'a2').execute();
        expect(await found('marrow')).toEqual(['a2', 'b1']);
        expect(await found('quellwood')).toEqual(['a1']);
        // Changing hands beside a searched field is refused on SQLite (its index would lose
        // step); on PostgreSQL it is one row's change.
        const both = db
          .updateTable('mates')
          .set({ creator_id: 'ada', tagline: 'Moved.' })
          .where('id', '=', 'a2')
          .execute();
        if (dialect === 'sqlite') await expect(both).rejects.toThrow(/update of its own/);
        else {
          await both;
          expect(await found('quellwood')).toEqual(['a1', 'a2']);
          await db.updateTable('mates').set({ creator_id: 'bob' }).where('id', '=', 'a2').execute();
        }
        await db.deleteFrom('mates').where('id', '=', 'a1').execute();
        expect(await found('quellwood')).toEqual([]);
        if (dialect === 'sqlite') {
          // FTS5 checks its index against the table's rows, and throws when they differ.
          await sql`insert into mates_fts(mates_fts, rank) values ('integrity-check', 1)`.execute(
            db,
          );
          // What it takes out leaves its pages too (FTS5's secure-delete): a deleted account's
          // name is no longer in the file.
          const config = await sql<{ v: number }>`
            select v from mates_fts_config where k = 'secure-delete'`.execute(db);
          expect(config.rows).toEqual([{ v: 1 }]);
        }
      } finally {
        await database.drop();
      }
    },
  );
});
