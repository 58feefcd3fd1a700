import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { failEmptyReply } from './turn-service';
import { abandonedReplies } from './message-repository';

/**
 * Marks replies that a killed process left `partial` and empty as `error`, giving their chat
 * back; answers how many. Only replies started before `startedBefore` whose room no reply holds
 * now (`isBusy`, the rooms' locks): the server that wrote one took its room's lock before the
 * reply existed and keeps it until the reply is finished, so a reply older than the check whose
 * room is free has nobody writing it. Safe when several servers look at once: each reply is
 * failed and refunded by one conditional update (see `failEmptyReply`).
 */
export async function recoverAbandonedReplies(
  db: Kysely<Database>,
  startedBefore: Date,
  isBusy: (roomId: string) => Promise<boolean> = async () => false,
): Promise<number> {
  const abandoned = await abandonedReplies(db, startedBefore);
  let recovered = 0;
  for (const reply of abandoned) {
    if (await isBusy(reply.room_id)) continue;
    if (
      await failEmptyReply(db, reply.user_id, reply.id, {
        key: 'ledger.reasons.refundReplyAbandoned',
      })
    )
      recovered += 1;
  }
  return recovered;
}
