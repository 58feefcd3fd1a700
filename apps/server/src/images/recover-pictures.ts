import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { refundGoldCoins } from '../accounts/benefits';
import { NOT_QUEUED } from './picture-routes';

/**
 * Fails the pictures a killed process left without a job — written and charged, then the
 * process died before the job was stored — and gives their gold coins back, as the ledger
 * charged them; answers how many. Only pictures asked for before `askedBefore`: a picture
 * another server is queueing right now is younger than that. Safe when several servers look
 * at once: the message is failed and refunded in one transaction, and only by the one whose
 * conditional update changed it.
 */
export async function recoverUnqueuedPictures(
  db: Kysely<Database>,
  askedBefore: Date,
): Promise<number> {
  const orphans = await db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .leftJoin('jobs', 'jobs.id', 'messages.image_job_id')
    .select(['messages.id', 'rooms.user_id'])
    .where('messages.image_prompt', 'is not', null)
    .where('messages.image_error', 'is', null)
    .where('messages.image_file', 'is', null)
    .where('jobs.id', 'is', null)
    .where('messages.created_at', '<', askedBefore.toISOString())
    .execute();
  let recovered = 0;
  for (const orphan of orphans) {
    const failed = await db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('messages')
        .set({ status: 'error', image_error: NOT_QUEUED })
        .where('id', '=', orphan.id)
        .where('image_error', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      // What this picture was charged (and not yet given back), from the ledger's rows about it.
      const moved = await trx
        .selectFrom('benefit_ledger')
        .select((eb) => eb.fn.sum<number | string>('gold_coins_delta').as('net'))
        .where('user_id', '=', orphan.user_id)
        .where('reference_type', '=', 'message')
        .where('reference_id', '=', orphan.id)
        .executeTakeFirst();
      const owed = -Number(moved?.net ?? 0);
      if (owed > 0)
        await refundGoldCoins(trx, orphan.user_id, owed, {
          reason: 'refund: picture not queued',
          reference: { type: 'message', id: orphan.id },
        });
      return true;
    });
    if (failed) recovered += 1;
  }
  return recovered;
}
