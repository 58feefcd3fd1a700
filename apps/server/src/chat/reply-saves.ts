import type { Kysely } from 'kysely';
import type { MessageStatus } from '@mates/api-client';
import type { Database } from '../db/schema';
import { preparedQuery } from '../db/prepared-query';

// Run a few times for every reply: compiled once (see `preparedQuery`).
const saveReply = preparedQuery(
  (db, v: { content: string; status: MessageStatus; replyId: string }) =>
    db
      .updateTable('messages')
      .set({ content: v.content, status: v.status })
      .where('id', '=', v.replyId),
);

interface Save {
  replyId: string;
  content: string;
  status: MessageStatus;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The saves of growing replies asked for while the server handled one round of its work, run
 * together in one transaction: with many replies being written, each saving about once a
 * second, a transaction each cost a commit, its own WAL pages and a sync to wait for; together
 * they share them. Should the transaction fail, each save is tried on its own, so that one
 * reply's failure stays its own.
 */
function saveBatcher(db: Kysely<Database>) {
  let pending: Save[] = [];
  const runAlone = (save: Save) => saveReply(db, save).then(() => save.resolve(), save.reject);
  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 1) return runAlone(batch[0]!);
    try {
      await db.transaction().execute(async (trx) => {
        for (const save of batch) await saveReply(trx, save);
      });
    } catch {
      for (const save of batch) await runAlone(save);
      return;
    }
    for (const save of batch) save.resolve();
  };
  return (save: Omit<Save, 'resolve' | 'reject'>): Promise<void> =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(() => void flush());
      pending.push({ ...save, resolve, reject });
    });
}

const batchers = new WeakMap<Kysely<Database>, ReturnType<typeof saveBatcher>>();

/**
 * Saves a reply's text and state; resolves once it is stored (durably, where the database
 * syncs commits), in a transaction shared with the other replies' saves asked for meanwhile.
 */
export function saveReplyText(
  db: Kysely<Database>,
  save: { replyId: string; content: string; status: MessageStatus },
): Promise<void> {
  let saveLater = batchers.get(db);
  if (!saveLater) {
    saveLater = saveBatcher(db);
    batchers.set(db, saveLater);
  }
  return saveLater(save);
}
