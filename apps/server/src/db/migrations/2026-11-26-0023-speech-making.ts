import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * `speech_clips.making_until`: a server making a pending clip claims it until then, so that
 * another server asked for the same clip waits for that file instead of paying the engine a
 * second time, and a clip dropped while it is being made (its message edited mid-play) is not
 * refunded as if it had never been heard. `null`, or a time past: nobody is making it.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('speech_clips')
    .addColumn('making_until', columnTypes(dialect).timestamp)
    .execute();
}
