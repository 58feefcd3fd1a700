// What building a reply's prompt costs the server as a conversation grows (#20): reading the
// room's newest messages that fit the model's context (`fittingTurns`, what a send does), beside
// reading the whole room as sends did before, and once the room's mate remembers (#39: a summary
// and 500 facts, ranked at every send). All run on the event loop, so every other caller of the
// server waits for them. Rooms of 10, 1,000 and 10,000 messages of about 170 characters;
// an 8,192-token context. On SQLite (a file, as in production) and, when it answers,
// PostgreSQL; and the smallest room's once its mate is an imported card of 11 MB (its lorebook
// and post-history instructions). BENCH_PROMPT_CALLS (default 200) sets the calls timed per row. Prints a table and
// saves bench/results/prompt.json.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { MEMORIES_PER_ROOM_MAX } from '@mates/api-client';
import { appendMessages } from '../src/chat/messages';
import { buildTurns } from '../src/chat/prompt';
import { fittingTurns, loadConversation } from '../src/chat/conversation';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { freshDatabase, postgresAvailable } from '../test/harness';
import { benchUser } from './bench-user';
import { saveResults, type ResultRow } from './results';
import type { Db } from '../src/db/connect';
import { newRoomRow } from '../src/chat/room-repository';

const CALLS = Number(process.env.BENCH_PROMPT_CALLS ?? 200);
const SIZES = [10, 1000, 10_000];
const REPLY_TOKENS = 512;
/** The context of a common hosted or local model; tokens counted as the OpenAI provider does. */
const model = { contextSize: 8192, countTokens: (text: string) => Math.ceil(text.length / 4) };
const LINE =
  'She laughed softly and leaned closer, the lantern light catching in her eyes as she told ' +
  'you about the old lighthouse keeper and his stubborn cat.';

async function sqliteDatabase(): Promise<Db & { drop: () => Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-prompt-bench-'));
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

/** Memories of a room: a summary, 5 pinned facts and the rest of the most a room keeps. */
async function rememberMuch(db: Db['db'], roomId: string): Promise<void> {
  const at = new Date().toISOString();
  const memories = Array.from({ length: MEMORIES_PER_ROOM_MAX }, (_, index) => ({
    id: `${roomId}-memory-${index}`,
    room_id: roomId,
    kind: index === 0 ? 'summary' : 'fact',
    about: index % 3 === 0 ? 'person' : 'story',
    content:
      index === 0
        ? `${LINE} ${LINE} ${LINE}`
        : `Fact ${index}: the keeper's cat number ${index} hates the ${index % 7 === 0 ? 'storm' : 'lantern'}.`,
    pinned: index > 0 && index <= 5,
    author: 'mate',
    created_at: at,
    updated_at: at,
  }));
  for (let start = 0; start < memories.length; start += 100)
    await db
      .insertInto('memories')
      .values(memories.slice(start, start + 100))
      .execute();
  await db.updateTable('rooms').set({ memory_version: 1 }).where('id', '=', roomId).execute();
}

/** A card's other fields as an imported card of the largest size taken may hold them (11 MB). */
function bigCardExtra(): string {
  const entries = Array.from({ length: 1000 }, (_, index) => ({
    keys: [`place${index}`, `person${index}`],
    content: `${'The harbour at night. '.repeat(500)}Entry ${index}.`,
    enabled: true,
    insertion_order: index,
  }));
  return JSON.stringify({
    character_book: { entries },
    post_history_instructions: 'Stay in character.',
  });
}

/** Mean milliseconds of `work` over {@link CALLS} calls, after a few to warm up. */
async function meanMs(work: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 10; index += 1) await work();
  const started = performance.now();
  for (let index = 0; index < CALLS; index += 1) await work();
  return Math.round(((performance.now() - started) / CALLS) * 1000) / 1000;
}

async function measure(dialect: 'sqlite' | 'postgres'): Promise<ResultRow[]> {
  const database = dialect === 'sqlite' ? await sqliteDatabase() : await freshDatabase(dialect);
  const { db } = database;
  const rows: ResultRow[] = [];
  try {
    const media = createFolderStore(fs.mkdtempSync(path.join(os.tmpdir(), 'mates-prompt-media-')));
    await seedIfEmpty(db, { media });
    const mate = await db.selectFrom('mates').select('id').executeTakeFirstOrThrow();
    for (const size of SIZES) {
      const userId = `prompt-bench-${size}`;
      await benchUser(db, userId, { chats: 0, goldCoins: 0 });
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const at = new Date().toISOString();
      const room = newRoomRow({
        id: `room-${size}`,
        user_id: userId,
        mate_id: mate.id,
        persona_id: null,
        created_at: at,
      });
      await db.insertInto('rooms').values(room).execute();
      for (let start = 0; start < size; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, size - start) }, (_, offset) => ({
          role: (start + offset) % 2 ? ('mate' as const) : ('user' as const),
          content: `${start + offset}. ${LINE}`,
          status: 'complete' as const,
        }));
        await appendMessages(db, room.id, batch);
      }
      // As autovacuum would soon after: PostgreSQL plans by its statistics of the table, and
      // without them it sorted the whole room rather than read its index backwards.
      if (dialect === 'postgres') await sql`analyze messages`.execute(db);
      // Each call answers a new message, as each send does: what is recalled is ranked anew.
      let asked = 0;
      const newestThatFit = () => {
        asked += 1;
        const upcoming = `Tell me again about the cat number ${asked} and the storm.`;
        return fittingTurns(
          async (recent) => ({
            ...(await loadConversation(db, room, user, null, recent, upcoming)),
            language: 'en',
          }),
          model,
          REPLY_TOKENS,
        );
      };
      rows.push({
        database: dialect,
        messages: String(size),
        'turns in the prompt': (await newestThatFit()).turns.length - 1,
        'newest that fit ms': await meanMs(newestThatFit),
        'whole room ms': await meanMs(async () =>
          buildTurns(
            {
              ...(await loadConversation(db, room, user, null, Number.MAX_SAFE_INTEGER)),
              language: 'en',
            },
            model,
            REPLY_TOKENS,
          ),
        ),
      });
      // The same room once its mate remembers: a summary, pinned facts and the most a room
      // keeps, ranked against the last messages at every send.
      await rememberMuch(db, room.id);
      room.memory_version = 1;
      rows.at(-1)!['with memories ms'] = await meanMs(newestThatFit);
      rows.at(-1)!['memory tokens'] = Object.values((await newestThatFit()).report.memory).reduce(
        (sum, part) => sum + part.tokens,
        0,
      );
      // The smallest room once its mate is an imported card of the largest size taken (a lorebook
      // of 1,000 long entries and post-history instructions, 11 MB): what every send of its
      // chats pays for the card's other fields.
      if (size === SIZES[0]) {
        const saved = await db
          .selectFrom('mates')
          .select(['card_extra', 'updated_at'])
          .where('id', '=', mate.id)
          .executeTakeFirstOrThrow();
        const withCard = (changes: typeof saved) =>
          db.updateTable('mates').set(changes).where('id', '=', mate.id).execute();
        await withCard({ card_extra: bigCardExtra(), updated_at: new Date().toISOString() });
        rows.at(-1)!['with an 11 MB card ms'] = await meanMs(newestThatFit);
        // The larger rooms' rows are of the mate as it was.
        await withCard({ ...saved, updated_at: new Date(Date.now() + 1000).toISOString() });
      }
    }
  } finally {
    await database.drop();
  }
  return rows;
}

const rows = await measure('sqlite');
if (await postgresAvailable()) rows.push(...(await measure('postgres')));
else console.log('PostgreSQL does not answer: SQLite only.');
console.log(
  `A reply's prompt as its room grows: the newest messages that fit an 8,192-token context, read a few at a time, beside the whole room read at once (mean of ${CALLS} calls, ${os.cpus().length} cores).`,
);
console.table(rows);
saveResults('prompt', rows);
