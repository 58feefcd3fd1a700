import type { Kysely } from 'kysely';
import type { MateVisibility, OwnMateSummary } from '@mates/api-client';
import type { Database, MateTable } from '../db/schema';
import { badInput, CODE, EnvelopeError, notFound } from '../http/envelope';
import { moderationOf, toMateSummary, type MateRow } from './mate-rows';

/**
 * One of `userId`'s own mates that is not deleted, or a 4004: another user's mate answers
 * as if it did not exist, and so does a deleted one, for its owner too.
 */
export async function findOwnMate(
  db: Kysely<Database>,
  userId: string,
  mateId: string,
): Promise<MateTable> {
  const row = await db
    .selectFrom('mates')
    .selectAll()
    .where('id', '=', mateId)
    .where('creator_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Mate');
  return row;
}

/** A mate as "Your mates" lists it for its owner. */
export function toOwnMateSummary(row: MateRow): OwnMateSummary {
  return {
    ...toMateSummary(row),
    visibility: row.visibility as MateVisibility,
    moderation: moderationOf(row),
    updatedAt: row.updated_at,
  };
}

/**
 * Refuses a visibility the mate may not take: `public` and `private` need a greeting (the
 * first message of every room; a draft may lack one), and a mate moderators hid cannot be
 * made public by its owner. One that was public when hidden stays public underneath (hiding
 * is a layer over visibility), so it can still be edited as it is.
 */
export function checkVisibility(
  mate: { first_mes: string; hidden_at: string | null; visibility: string | null },
  visibility: MateVisibility,
): void {
  if (visibility !== 'draft' && !mate.first_mes.trim())
    throw badInput(
      `first_mes: a ${visibility} mate needs a greeting (the first message of every chat); save it as a draft until it has one.`,
    );
  if (visibility === 'public' && mate.hidden_at && mate.visibility !== 'public')
    throw new EnvelopeError(
      CODE.forbidden,
      'Moderators hid this mate, so it cannot be made public. Their reason is shown on its page.',
    );
}
