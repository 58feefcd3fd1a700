// Searching every chat (#41): how long a search of one person's messages takes as they grow,
// beside a bare read of one message by its id on the same database (the floor). At each size N
// the database holds two sets of N messages: one person owning all N, in 100 chats (the worst
// case for a per-person order: every match is theirs), and N shared by 100 people, 10 chats
// each, searched as one of them (their share: N / 100). Messages of 20 words drawn from 5,000
// (a Zipf-like draw: the common word searched is in about 62% of all messages, 1.24 million
// rows at N = 1,000,000; a rare one in about 1 in 1,300). On SQLite (a file, as in production)
// and, when it answers, PostgreSQL. BENCH_SEARCH_SIZES (default `10000,1000000`),
// BENCH_SEARCH_CALLS (default 200) and BENCH_DIALECT (`sqlite` or `postgres`; both by default)
// vary a run. The goal: p99 at most 50 ms at a million messages. Prints a table and saves
// bench/results/search.json. Then, at each size, one chat is deleted: the time of the request's
// statement and, on SQLite, of the indexer's steps that take its words out of the index's pages
// (bench/results/search-delete.json).
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import {
  FORGET_BATCH,
  forgetRemovedMessages,
  indexAllPendingMessages,
} from '../src/chat/message-search-repository';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { freshDatabase, postgresAvailable } from '../test/harness';
import { benchUser } from './bench-user';
import { saveResults, type ResultRow } from './results';
import { searchMessages } from '../src/chat/message-search-service';
import type { Db } from '../src/db/connect';
import type { DialectName } from '../src/db/dialect';
import { newRoomRow } from '../src/chat/room-repository';
import { messageRow } from '../src/chat/message-repository';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '10000,1000000').split(',').map(Number);
const CALLS = Number(process.env.BENCH_SEARCH_CALLS ?? 200);
const DIALECTS = process.env.BENCH_DIALECT ? [process.env.BENCH_DIALECT] : ['sqlite', 'postgres'];
const VOCABULARY = 5000;
/** Who owns the N messages of a size: one person, or many (searched as the first). */
const OWNERS = [
  { label: 'one person owns all', people: 1, rooms: 100 },
  { label: 'one of 100 people', people: 100, rooms: 10 },
] as const;

/** A word of the vocabulary: `w123` style, so that every word is a whole word to the index. */
const word = (rank: number) => `w${rank.toString(36)}x`;

/** A message's words: a Zipf-like draw, so a few words are common and most are rare. */
function sentence(seed: number): string {
  const words: string[] = [];
  // mulberry32, in 32-bit integer arithmetic (a float product past 2^53 loses its low bits,
  // and the draws then drift with the seed: words common in old messages, absent from new).
  let state = seed >>> 0;
  for (let index = 0; index < 20; index += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    const draw = ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
    words.push(word(Math.floor(VOCABULARY ** draw) - 1));
  }
  return words.join(' ');
}

async function sqliteDatabase(): Promise<Db & { drop: () => Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-search-bench-'));
  const database = connect({ sqliteFile: path.join(folder, 'mates.db') });
  await migrateToLatest(database.db as never, database.dialect);
  return {
    ...database,
    drop: async () => {
      await database.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/** p50 and p99 milliseconds of `work` over {@link CALLS} calls, after a few to warm up. */
async function timed(work: (call: number) => Promise<unknown>): Promise<[number, number]> {
  for (let call = 0; call < 10; call += 1) await work(call);
  const times: number[] = [];
  for (let call = 0; call < CALLS; call += 1) {
    const started = performance.now();
    await work(call);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return [round(percentile(times, 0.5)), round(percentile(times, 0.99))];
}

/** A chat deleted at each size (see `measure`). */
const deletions: ResultRow[] = [];

async function measure(dialect: DialectName): Promise<ResultRow[]> {
  const database = dialect === 'sqlite' ? await sqliteDatabase() : await freshDatabase(dialect);
  const { db } = database;
  const rows: ResultRow[] = [];
  try {
    const media = createFolderStore(fs.mkdtempSync(path.join(os.tmpdir(), 'mates-search-media-')));
    await seedIfEmpty(db, { media });
    const mate = await db.selectFrom('mates').select('id').executeTakeFirstOrThrow();
    let written = 0;
    for (const size of SIZES) {
      for (const owners of OWNERS) {
        const at = Date.now();
        const people: { userId: string; rooms: ReturnType<typeof newRoomRow>[] }[] = [];
        for (let person = 0; person < owners.people; person += 1) {
          // An id as the server makes them (SQLite's index holds its words beside the text's).
          const userId = randomUUID();
          await benchUser(db, userId, { chats: 0, goldCoins: 0 });
          const rooms = Array.from({ length: owners.rooms }, () =>
            newRoomRow({
              id: randomUUID(),
              user_id: userId,
              mate_id: mate.id,
              persona_id: null,
              created_at: new Date(at).toISOString(),
            }),
          );
          await db.insertInto('rooms').values(rooms).execute();
          people.push({ userId, rooms });
        }
        const started = performance.now();
        // The people's messages interleaved in time, as they are written.
        for (let start = 0; start < size; start += 1000) {
          const batch = Array.from({ length: Math.min(1000, size - start) }, (_, offset) => {
            const index = start + offset;
            const { rooms } = people[index % owners.people]!;
            const mine = Math.floor(index / owners.people);
            return messageRow(
              {
                role: mine % 2 ? 'mate' : 'user',
                content: sentence(written + index + 1),
                status: 'complete',
              },
              {
                id: randomUUID(),
                roomId: rooms[mine % owners.rooms]!.id,
                position: Math.floor(mine / owners.rooms) + 1,
                at: new Date(at + index).toISOString(),
              },
            );
          });
          await db.insertInto('messages').values(batch).execute();
        }
        written += size;
        // Indexed as a running server indexes them (migration 0040): in batches after the writes.
        await indexAllPendingMessages(db, dialect);
        const loadSeconds = Math.round((performance.now() - started) / 100) / 10;
        if (dialect === 'postgres') await sql`analyze messages`.execute(db);
        else await sql`pragma optimize`.execute(db);
        const user = await db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', people[0]!.userId)
          .executeTakeFirstOrThrow();
        const oneId = (
          await db
            .selectFrom('messages')
            .select('id')
            .where('room_id', '=', people[0]!.rooms[0]!.id)
            .executeTakeFirstOrThrow()
        ).id;
        const [oneP50, oneP99] = await timed(() =>
          db.selectFrom('messages').selectAll().where('id', '=', oneId).executeTakeFirst(),
        );
        const deps = { db, dialect };
        const queries: [string, (call: number) => string][] = [
          ['a common word', () => word(1)],
          ['a rare word', (call) => word(3000 + (call % 1000))],
          ['two words', (call) => `${word(2)} ${word(40 + (call % 20))}`],
          ['a word being typed', (call) => word(100 + (call % 50)).slice(0, 3)],
          ['no such word', (call) => `zz${call}q`],
        ];
        for (const [label, keyword] of queries) {
          const [p50, p99] = await timed((call) =>
            searchMessages(deps, user, { keyword: keyword(call), page: 1, pageSize: 20 }),
          );
          rows.push({
            database: dialect,
            messages: String(size),
            owners: owners.label,
            search: label,
            'p50 ms': p50,
            'p99 ms': p99,
            'read one message p50 ms': oneP50,
            'read one message p99 ms': oneP99,
            'loaded in s': loadSeconds,
            'p99 goal met (≤ 50 ms)': p99 <= 50 ? 'yes' : 'no',
          });
        }
        // A chat deleted: what the request waits for, and, on SQLite, the indexer's work to take
        // its words out of the index's pages (migration 0043), in steps with other work between.
        const room = people[0]!.rooms[1]!.id;
        const { count } = await db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('room_id', '=', room)
          .executeTakeFirstOrThrow();
        let moment = performance.now();
        await db.deleteFrom('rooms').where('id', '=', room).execute();
        const deleteMs = performance.now() - moment;
        const steps: number[] = [];
        for (;;) {
          moment = performance.now();
          const taken = await forgetRemovedMessages(db, dialect);
          if (taken > 0) steps.push(performance.now() - moment);
          if (taken < FORGET_BATCH) break;
        }
        const round = (ms: number) => Math.round(ms * 10) / 10;
        deletions.push({
          database: dialect,
          messages: String(size),
          owners: owners.label,
          'chat of messages': Number(count),
          'delete request ms': round(deleteMs),
          'forget steps': steps.length,
          'forget total ms': round(steps.reduce((sum, ms) => sum + ms, 0)),
          'longest step ms': round(Math.max(0, ...steps)),
        });
      }
    }
  } finally {
    await database.drop();
  }
  return rows;
}

const rows: ResultRow[] = [];
if (DIALECTS.includes('sqlite')) rows.push(...(await measure('sqlite')));
if (DIALECTS.includes('postgres')) {
  if (await postgresAvailable()) rows.push(...(await measure('postgres')));
  else console.log('PostgreSQL does not answer: SQLite only.');
}
console.log(
  `Searching one person's messages, a page of 20 newest first, beside reading one message by its id (${CALLS} calls each, ${os.cpus().length} cores).`,
);
console.table(rows);
saveResults('search', rows);
console.log(
  "A chat deleted (the second of the first person's): the request's statement, and on SQLite the indexer's steps that take its words out of the index's pages (migration 0043).",
);
console.table(deletions);
saveResults('search-delete', deletions);
