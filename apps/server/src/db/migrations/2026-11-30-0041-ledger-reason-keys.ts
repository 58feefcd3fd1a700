import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * The ledger in the reader's language: `benefit_ledger` gets `reason_key` (the sentence its
 * English `reason` says, a key of the server's texts such as `ledger.reasons.chat`) and
 * `reason_args` (the sentence's values, as JSON), both `null` for an operator's own words.
 * Rows written before whose reason is one of the fixed sentences get its key; rows whose
 * sentence had values (a package's name, an amount already spent) keep their English words
 * alone. The sentences are written out here as they were stored, not read from the texts,
 * which may change after this runs.
 */
const FIXED: [reason: string, key: string][] = [
  ['welcome', 'ledger.reasons.welcome'],
  ['chat', 'ledger.reasons.chat'],
  ['inspiration', 'ledger.reasons.inspiration'],
  ['character draft', 'ledger.reasons.characterDraft'],
  ['inspiration: refunded, nothing usable', 'ledger.reasons.inspirationNothingUsable'],
  ['character draft: refunded, nothing usable', 'ledger.reasons.characterDraftNothingUsable'],
  ['picture', 'ledger.reasons.picture'],
  ['voice', 'ledger.reasons.voice'],
  ['refund: reply abandoned', 'ledger.reasons.refundReplyAbandoned'],
  ['refund: stopped', 'ledger.reasons.refundStopped'],
  ['refund: no reply', 'ledger.reasons.refundNoReply'],
  ['refund: room deleted', 'ledger.reasons.refundRoomDeleted'],
  ['refund: picture failed', 'ledger.reasons.refundPictureFailed'],
  ['refund: picture cancelled', 'ledger.reasons.refundPictureCancelled'],
  ['refund: picture not queued', 'ledger.reasons.refundPictureNotQueued'],
  ['refund: voice failed', 'ledger.reasons.refundVoiceFailed'],
  ['refund: voice dropped unplayed', 'ledger.reasons.refundVoiceUnplayed'],
  ['gift from the operator', 'ledger.reasons.operatorGift'],
];

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('benefit_ledger').addColumn('reason_key', 'text').execute();
  await db.schema.alterTable('benefit_ledger').addColumn('reason_args', 'text').execute();
  for (const [reason, key] of FIXED)
    await sql`update benefit_ledger set reason_key = ${key} where reason = ${reason}`.execute(db);
}
