import type { KeyValueStorage } from '@mates/state-machines';

import { DRAFTS_KEY } from './device-work';

// Forgetting them all (`forgetDrafts`) is in device-work.ts, with the rest of what a sign-out
// forgets: the first screen loads it, and this module only with a chat.
export { DRAFTS_KEY, forgetDrafts } from './device-work';

/** How many rooms' unsent messages are kept; the oldest written goes first. */
export const DRAFTS_KEPT = 50;

/**
 * The most characters of one text kept (twice what a message may hold): a huge paste stays in
 * its box, but only this much of it on the device, whose storage the sign-in shares.
 */
export const DRAFT_CHARS_KEPT = 16_000;

/** What a room's message box left unsent on this device. */
export interface Draft {
  /** What is in the box. */
  text: string;
  /**
   * A message sent from the box whose saving the page never heard of (the tab closed or the
   * reply stopped meanwhile): saved or not, the room's messages tell; `null` when none.
   */
  sending: string | null;
}

interface KeptDraft extends Draft {
  /** When it was written, in milliseconds since 1970. */
  at: number;
}

const EMPTY: Draft = { text: '', sending: null };

function readAll(storage: KeyValueStorage): Record<string, KeptDraft> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(DRAFTS_KEY) || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, Partial<KeptDraft> | null>).flatMap(
        ([roomId, kept]) =>
          typeof kept?.text === 'string' && typeof kept.at === 'number'
            ? [[roomId, { text: kept.text, sending: kept.sending ?? null, at: kept.at }]]
            : [],
      ),
    );
  } catch {
    // A copy this version cannot read (or storage refused) is an empty one, not a broken chat.
    return {};
  }
}

/** What `roomId`'s box left unsent on this device (nothing: empty text, no message sending). */
export function readDraft(storage: KeyValueStorage, roomId: string): Draft {
  const kept = readAll(storage)[roomId];
  return kept ? { text: kept.text, sending: kept.sending } : { ...EMPTY };
}

/**
 * Keeps `draft` as what `roomId`'s box left unsent (an empty one forgets the room's), so that a
 * reload, a visit elsewhere or a closed tab loses nothing. At most {@link DRAFTS_KEPT} rooms'
 * are kept. Storage that refuses (private browsing, a full quota) keeps nothing, and the chat
 * goes on: the text is still in its box.
 */
export function writeDraft(
  storage: KeyValueStorage,
  roomId: string,
  draft: Draft,
  at = Date.now(),
): void {
  const all = readAll(storage);
  const text = draft.text.slice(0, DRAFT_CHARS_KEPT);
  const sending = draft.sending?.slice(0, DRAFT_CHARS_KEPT) || null;
  if (text || sending) all[roomId] = { text, sending, at };
  else delete all[roomId];
  const kept = Object.entries(all)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, DRAFTS_KEPT);
  try {
    storage.setItem(DRAFTS_KEY, kept.length === 0 ? '' : JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Nothing to do: the message is still in the box.
  }
}

/** Forgets what `roomId`'s box left unsent: the chat was deleted. */
export function forgetDraft(storage: KeyValueStorage, roomId: string): void {
  writeDraft(storage, roomId, EMPTY);
}

/**
 * `pending` (a message that did not reach the server) back in a box that holds `typed`: before
 * what was typed since, once.
 */
export function withUnsent(pending: string, typed: string): string {
  if (!typed) return pending;
  if (typed.includes(pending)) return typed;
  return `${pending}\n\n${typed}`;
}

/**
 * What `box` holds without `pending`, given back to it by {@link withUnsent} before the server
 * was found to have it after all: `box` as it is when the person has changed that part.
 */
export function withoutUnsent(pending: string, box: string): string {
  if (box === pending) return '';
  if (box.startsWith(`${pending}\n\n`)) return box.slice(pending.length + 2);
  return box;
}
