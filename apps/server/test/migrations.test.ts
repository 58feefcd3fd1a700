import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import { newRoomRow } from '../src/chat/room-repository';
import { appendMessages } from '../src/chat/messages';
import { findMessages } from '../src/chat/message-search-repository';
import {
  DIALECTS,
  emptyDatabase,
  freshDatabase,
  insertUser,
  mateRow,
  postgresAvailable,
} from './harness';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'run up from empty, then do nothing the second time',
    async () => {
      const database = await freshDatabase(dialect);
      try {
        expect(await migrateToLatest(database.db as never, database.dialect)).toEqual([]);
        const tables = await database.db.introspection.getTables();
        expect(tables.map((t) => t.name)).toEqual(
          expect.arrayContaining([
            'users',
            'sessions',
            'mates',
            'mate_tags',
            'favorites',
            'follows',
            'personas',
            'reviews',
            'search_log',
          ]),
        );
        expect(tables.map((t) => t.name)).not.toContain('mate_chat_log');
        const applied = await sql<{
          name: string;
        }>`select name from kysely_migration order by name`.execute(database.db);
        expect(applied.rows.map((r) => r.name)).toEqual([
          '2026-11-22-0001-initial',
          '2026-11-22-0002-search',
          '2026-11-22-0003-card-extra',
          '2026-11-22-0004-listing-indexes',
          '2026-11-22-0005-packages',
          '2026-11-22-0006-rooms',
          '2026-11-22-0007-one-default-persona',
          '2026-11-23-0008-chat-log-index',
          '2026-11-23-0009-card-spec',
          '2026-11-23-0010-unfinished-replies',
          '2026-11-23-0011-studio-and-moderation',
          '2026-11-23-0012-jobs',
          '2026-11-23-0013-picture-messages',
          '2026-11-23-0014-picture-sharing',
          '2026-11-23-0015-speech-clips',
          '2026-11-24-0016-ledger',
          '2026-11-24-0017-payments',
          '2026-11-24-0018-password-resets',
          '2026-11-24-0019-swipes',
          '2026-11-25-0020-jobs-state-index',
          '2026-11-25-0021-catalog-counts',
          '2026-11-26-0022-drop-chat-log',
          '2026-11-26-0023-speech-making',
          '2026-11-26-0024-private-nicknames',
          '2026-11-26-0025-plan-payments',
          '2026-11-26-0026-search-word-people',
          '2026-11-28-0027-checkout-price',
          '2026-11-28-0028-persona-avatars',
          '2026-11-28-0029-search-word-spellings',
          '2026-11-29-0030-memories',
          '2026-11-29-0031-branches',
          '2026-11-29-0032-message-search',
          '2026-11-29-0033-group-chats',
          '2026-11-29-0034-your-data',
          '2026-11-29-0035-group-memories',
          '2026-11-29-0036-voice-calls',
          '2026-11-29-0037-message-search-owner',
          '2026-11-29-0038-group-stays',
          '2026-11-29-0039-message-search-prefixes',
          '2026-11-29-0040-message-index-later',
          '2026-11-30-0041-ledger-reason-keys',
          '2026-12-02-0042-creator-search',
          '2026-12-03-0043-message-index-forgets',
          '2026-12-03-0044-version-statuses',
        ]);
      } finally {
        await database.drop();
      }
    },
  );
});

describe.each(DIALECTS)('the one-default-persona migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'keeps the oldest of several default personas, then refuses a second one',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-22-0006-rooms');
        const at = (second: number) => `2026-11-23T10:00:0${second}.000Z`;
        await db
          .insertInto('users')
          .values({
            id: 'u1',
            email: 'u1@example.com',
            password_hash: null,
            nickname: 'u1',
            bio: '',
            language: 'en',
            nfsw: false,
            created_at: at(0),
            updated_at: at(0),
          })
          .execute();
        await db
          .insertInto('personas')
          .values(
            ['p3', 'p1', 'p2'].map((id, index) => ({
              id,
              user_id: 'u1',
              name: id,
              description: '',
              avatar: null,
              is_default: true,
              created_at: at(Number(id.slice(1))),
              updated_at: at(index),
            })),
          )
          .execute();
        await migrateToLatest(db as never, dialect);
        const defaults = await db
          .selectFrom('personas')
          .select('id')
          .where('is_default', '=', true)
          .execute();
        expect(defaults).toEqual([{ id: 'p1' }]);
        await expect(
          db.updateTable('personas').set({ is_default: true }).where('id', '=', 'p2').execute(),
        ).rejects.toThrow(/unique/i);
      } finally {
        await database.drop();
      }
    },
  );
});

describe.each(DIALECTS)('the ledger migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'gives old rows their kind and the balances after each, per user in order',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-23-0015-speech-clips');
        const at = '2026-11-23T10:00:00.000Z';
        for (const id of ['u1', 'u2'])
          await db
            .insertInto('users')
            .values({
              id,
              email: `${id}@example.com`,
              password_hash: null,
              nickname: id,
              bio: '',
              language: 'en',
              nfsw: false,
              created_at: at,
              updated_at: at,
            })
            .execute();
        const rows: [string, number, number, string][] = [
          ['u1', 50, 20, 'welcome'],
          ['u2', 50, 20, 'welcome'],
          ['u1', -1, 0, 'chat'],
          ['u1', 0, -5, 'picture'],
          ['u2', -1, 0, 'inspiration'],
          ['u1', 0, 5, 'refund: picture failed'],
          ['u1', 3, 0, 'test'],
        ];
        for (const [user_id, chats_delta, gold_coins_delta, reason] of rows)
          await sql`insert into benefit_ledger (user_id, chats_delta, gold_coins_delta, reason, created_at)
            values (${user_id}, ${chats_delta}, ${gold_coins_delta}, ${reason}, ${at})`.execute(db);
        await migrateToLatest(db as never, dialect);
        const after = await db
          .selectFrom('benefit_ledger')
          .select(['user_id', 'kind', 'chats_after', 'gold_coins_after', 'reference_id'])
          .orderBy('id')
          .execute();
        expect(after).toEqual([
          {
            user_id: 'u1',
            kind: 'grant',
            chats_after: 50,
            gold_coins_after: 20,
            reference_id: null,
          },
          {
            user_id: 'u2',
            kind: 'grant',
            chats_after: 50,
            gold_coins_after: 20,
            reference_id: null,
          },
          {
            user_id: 'u1',
            kind: 'spend',
            chats_after: 49,
            gold_coins_after: 20,
            reference_id: null,
          },
          {
            user_id: 'u1',
            kind: 'spend',
            chats_after: 49,
            gold_coins_after: 15,
            reference_id: null,
          },
          {
            user_id: 'u2',
            kind: 'spend',
            chats_after: 49,
            gold_coins_after: 20,
            reference_id: null,
          },
          {
            user_id: 'u1',
            kind: 'refund',
            chats_after: 49,
            gold_coins_after: 20,
            reference_id: null,
          },
          {
            user_id: 'u1',
            kind: 'adjustment',
            chats_after: 52,
            gold_coins_after: 20,
            reference_id: null,
          },
        ]);
        const caps = await db
          .selectFrom('users')
          .select(['daily_chats_cap', 'daily_gold_coins_cap'])
          .where('id', '=', 'u1')
          .executeTakeFirstOrThrow();
        expect(caps).toEqual({ daily_chats_cap: null, daily_gold_coins_cap: null });
      } finally {
        await database.drop();
      }
    },
  );
});

describe.each(DIALECTS)('the catalog counts migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'counts the logged searches and chats into per-day rows, each user once per mate',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-25-0020-jobs-state-index');
        const day = (daysAgo: number) =>
          new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString();
        await insertUser(db, { id: 'c', email: 'c@example.com' });
        await db
          .insertInto('mates')
          .values(mateRow('c', { id: 'm' }))
          .execute();
        for (const [word, daysAgo] of [
          ['cafe', 0],
          ['cafe', 0],
          ['cafe', 2],
          ['tea', 1],
        ] as const)
          await sql`insert into search_log (word, created_at) values (${word}, ${day(daysAgo)})`.execute(
            db,
          );
        for (const [user, daysAgo] of [
          ['ada', 3],
          ['ada', 0],
          ['bob', 2],
        ] as const)
          await sql`insert into mate_chat_log (mate_id, user_id, created_at) values ('m', ${user}, ${day(daysAgo)})`.execute(
            db,
          );
        await migrateToLatest(db as never, dialect);
        const searches = await db
          .selectFrom('search_word_days')
          .select(['word', 'searches'])
          .orderBy('word')
          .orderBy('day', 'desc')
          .execute();
        expect(searches).toEqual([
          { word: 'cafe', searches: 2 },
          { word: 'cafe', searches: 1 },
          { word: 'tea', searches: 1 },
        ]);
        const trend = await db
          .selectFrom('mate_trend_days')
          .select(['day', 'users'])
          .orderBy('day', 'desc')
          .execute();
        expect(trend).toEqual([
          { day: day(0).slice(0, 10), users: 1 },
          { day: day(2).slice(0, 10), users: 1 },
        ]);
      } finally {
        await database.drop();
      }
    },
  );
});

describe.each(DIALECTS)('the message search prefixes migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'finds the words of messages written before it, and of those written after',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-29-0038-group-stays');
        await insertUser(db, { id: 'u', email: 'u@example.com' });
        await db
          .insertInto('mates')
          .values(mateRow('u', { id: 'm' }))
          .execute();
        const room = newRoomRow({
          id: 'r',
          user_id: 'u',
          mate_id: 'm',
          persona_id: null,
          created_at: new Date().toISOString(),
        });
        await db.insertInto('rooms').values(room).execute();
        // Written as the schema of then takes it (today's code writes columns added since).
        await db
          .insertInto('messages')
          .values({
            id: 'old',
            room_id: 'r',
            position: 1,
            role: 'user',
            content: 'The old lighthouse.',
            status: 'complete',
            created_at: new Date().toISOString(),
          } as never)
          .execute();
        await migrateToLatest(db as never, dialect);
        await appendMessages(db, 'r', [
          { role: 'mate', content: 'A lighter light.', status: 'complete' },
        ]);
        const found = async (words: string[]) =>
          (await findMessages(db, dialect, { userId: 'u', words, limit: 5, offset: 0 })).map(
            (row) => row.content,
          );
        expect(await found(['lig'])).toEqual(['A lighter light.', 'The old lighthouse.']);
        expect(await found(['old', 'lighth'])).toEqual(['The old lighthouse.']);
        if (dialect === 'sqlite') {
          const table = await sql<{ sql: string }>`select sql from sqlite_master
            where name = 'messages_fts'`.execute(db);
          expect(table.rows[0]!.sql).toContain("prefix='2 3 4'");
        }
      } finally {
        await database.drop();
      }
    },
  );
});
