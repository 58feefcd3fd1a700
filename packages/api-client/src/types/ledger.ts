import type { IsoDateTime, PageQuery } from './common';

/** Every kind of movement of chats or gold coins, as the ledger records them. */
export const LEDGER_KINDS = [
  'grant',
  'purchase',
  'renewal',
  'spend',
  'refund',
  'adjustment',
] as const;

/**
 * What moved a balance: `grant` (the welcome gift, an operator's gift), `purchase` (a pack
 * bought), `renewal` (a plan's monthly grant), `spend` (a chat message, a picture, a voice clip,
 * a generated character), `refund` (a spend given back) or `adjustment` (an operator's
 * correction, or a payment refunded by the bank).
 */
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** What a ledger entry paid for or came from, when there is one. */
export interface LedgerReference {
  /** What it is. */
  type: 'message' | 'room' | 'mate' | 'package';
  /** Its id (a message's `messageId`, a room's `roomId`, a mate's `mateId`, a `packageId`). */
  id: string;
  /**
   * For a message: the room (chat) it is in, so the entry can lead to that chat; absent when
   * the message is gone (its chat deleted) or for other types.
   */
  roomId?: string;
}

/** One movement of the caller's chats or gold coins: immutable once written. */
export interface LedgerEntry {
  /** Entry id. */
  entryId: string;
  /** What kind of movement. */
  kind: LedgerKind;
  /** Chats added (positive) or taken (negative). */
  chats: number;
  /** Gold coins added (positive) or taken (negative). */
  goldCoins: number;
  /**
   * Why, in plain words in the caller's language (`language` header), e.g. `picture`,
   * `refund: picture failed`; an operator's own words as written.
   */
  reason: string;
  /** What it paid for or came from, or `null`. */
  reference: LedgerReference | null;
  /** The balances right after it. */
  balance: { chats: number; goldCoins: number };
  /** When. */
  createdAt: IsoDateTime;
}

/** Query of `GET /user/ledger`: the caller's ledger, newest first. */
export type LedgerQuery = PageQuery;

/**
 * The caller's daily spending caps: `null` is no cap. A spend that would pass a cap is refused
 * (5007) and changes nothing; the day is the UTC day.
 */
export interface SpendingCap {
  /** Most chats spent in one day, or `null`. */
  dailyChats: number | null;
  /** Most gold coins spent in one day, or `null`. */
  dailyGoldCoins: number | null;
  /** What was spent today (refunds taken off). */
  spentToday: { chats: number; goldCoins: number };
}

/** Payload of `POST /user/setSpendingCap`: both caps, each a whole number ≥ 0 or `null` (none). */
export interface SetSpendingCapPayload {
  /** Most chats in one day, 0–1,000,000, or `null`. */
  dailyChats: number | null;
  /** Most gold coins in one day, 0–1,000,000, or `null`. */
  dailyGoldCoins: number | null;
}
