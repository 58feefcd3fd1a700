import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema';

// What a test reads of SQLite's message search index (`messages_fts`, migrations 0040 and 0043)
// beyond what a search answers: its pages, its own check, and its notes.

/**
 * How many of the index's pages hold `fragment`. Give a word's end, not the whole word: FTS5
 * writes a word after the start it shares with the word before it on its page.
 */
export async function indexPagesHolding(db: Kysely<Database>, fragment: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*) as count from messages_fts_data
    where instr(block, cast(${fragment} as blob)) > 0`.execute(db);
  return Number(rows[0]!.count);
}

/** FTS5's own check of the index: throws when it is corrupt. */
export async function checkMessageIndex(db: Kysely<Database>): Promise<void> {
  await sql`insert into messages_fts(messages_fts) values ('integrity-check')`.execute(db);
}

/** How many notes wait: messages written since the last batch, or removed and not yet forgotten. */
export async function indexNotes(
  db: Kysely<Database>,
  table: 'messages_fts_pending' | 'messages_fts_forget',
): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`select count(*) as count from ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.count);
}
