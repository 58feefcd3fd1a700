import type { Kysely } from 'kysely';
import type {
  LedgerEntry,
  LedgerKind,
  LedgerReference,
  Paged,
  SpendingCap,
} from '@mates/api-client';
import type { BenefitLedgerTable, Database } from '../db/schema';
import { now } from '../db/dialect';
import { paging, toPage } from '../catalog/mate-rows';
import { spentToday } from './benefits';
import { reasonIn } from './ledger-reasons';
import { ledgerCount, ledgerRows, setSpendingCaps, spendingCapsOf } from './ledger-repository';
import { forgetUserSessions } from './session-cache';

/** What the ledger's services work with. */
export interface LedgerDeps {
  db: Kysely<Database>;
}

/** A stored ledger row as the API shows it, its reason said in `language`. */
export function toLedgerEntry(
  row: Omit<BenefitLedgerTable, 'id'> & { id: number | string; room_id?: string | null },
  language: string,
): LedgerEntry {
  return {
    entryId: String(row.id),
    kind: row.kind as LedgerKind,
    chats: row.chats_delta,
    goldCoins: row.gold_coins_delta,
    reason: reasonIn(language, row),
    reference:
      row.reference_type && row.reference_id
        ? {
            type: row.reference_type as LedgerReference['type'],
            id: row.reference_id,
            ...(row.room_id && { roomId: row.room_id }),
          }
        : null,
    balance: { chats: row.chats_after, goldCoins: row.gold_coins_after },
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * One page of the user's movements of chats and gold coins, newest first, each row's reason in
 * `language` where it is one of the server's sentences.
 */
export async function ledgerPage(
  deps: LedgerDeps,
  userId: string,
  query: { page?: number; pageSize?: number },
  language: string,
): Promise<Paged<LedgerEntry>> {
  const page = paging(query);
  const [rows, total] = await Promise.all([
    ledgerRows(deps.db, userId, { limit: page.pageSize, offset: page.offset }),
    ledgerCount(deps.db, userId),
  ]);
  return toPage(
    rows.map((row) => toLedgerEntry(row, language)),
    page,
    total,
  );
}

/** The user's daily caps and what they spent today. */
export async function getSpendingCap(deps: LedgerDeps, userId: string): Promise<SpendingCap> {
  const caps = await spendingCapsOf(deps.db, userId);
  return {
    dailyChats: caps?.daily_chats_cap ?? null,
    dailyGoldCoins: caps?.daily_gold_coins_cap ?? null,
    spentToday: await spentToday(deps.db, userId),
  };
}

/** Sets the user's daily caps (`null`: none); answers them as {@link getSpendingCap} does. */
export async function setSpendingCap(
  deps: LedgerDeps,
  userId: string,
  caps: { dailyChats: number | null; dailyGoldCoins: number | null },
): Promise<SpendingCap> {
  await setSpendingCaps(deps.db, userId, { ...caps, at: now() });
  await forgetUserSessions(deps.db, userId);
  return getSpendingCap(deps, userId);
}
