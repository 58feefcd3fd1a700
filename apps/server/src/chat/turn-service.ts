import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ChatSendPayload, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable, RoomTable, UserTable } from '../db/schema';
import { invalid, refused } from '../domain/errors';
import { en } from '../i18n/en';
import { refundChat, spendChat, type SpendResult } from '../accounts/benefits';
import type { Reason } from '../accounts/ledger-reasons';
import {
  appendMessages,
  otherStatusesOf,
  versionStatusesOf,
  versionsOf,
  type NewMessage,
} from './messages';
import { messageRow } from './message-repository';
import type { GroupPromptContext } from './conversation';
import { forgetAfter } from './memory-repository';
import { holdRoomRow } from './room-row-repository';
import { fromJson, isUniqueViolation, now } from '../db/dialect';
import { dropSpeechIn } from '../voice/speech-clips';
import {
  deleteIfEmpty,
  deleteTextAfter,
  failIfEmpty,
  findAnsweredMessage,
  findEmptyReply,
  emptyRepliesAfter,
  failUnwrittenIn,
  findLastReplyAfter,
  moveForks,
  restoreIfEmpty,
  writeTurnAtOnce,
} from './turn-repository';

/** A reply that has been paid for and has its (empty, `partial`) message. */
export interface StartedReply {
  user: UserTable;
  room: RoomTable;
  /** The user's new message, or `null` when regenerating. */
  userMessage: MessageTable | null;
  reply: MessageTable;
  /** Spoken clips of the messages a regeneration removed: files to remove once committed. */
  droppedSpeech: string[];
  /**
   * A regeneration's: which of `reply`'s earlier versions the person was shown (its index
   * among them), given back if the regeneration is stopped before its first word.
   */
  shownVersion?: number;
  /** In a group chat, what the speaker's prompt says of the group. */
  group?: GroupPromptContext;
}

/** What a chat costs to whoever has none left (5007), in English. */
export const NO_CHATS_LEFT = en.notices.balance.noChatsLeft;

/** Throws the refusal for a chat that was not spent: none left, or the daily cap reached. */
export function requireSpentChat(result: SpendResult): void {
  if (result === 'capped') throw refused('notices.balance.dailyCap');
  if (result === 'short') throw refused('notices.balance.noChatsLeft');
}

/**
 * Charges one chat and writes the turn in one transaction: the user's message (or, when
 * regenerating, removes what followed the message answered again) and an empty `partial` reply that a reload already shows, paid for by a ledger spend that names
 * it. A refusal (no chats left, the daily cap reached, nothing to answer) throws a
 * `DomainError` and writes nothing.
 */
export async function startTurn(
  db: Kysely<Database>,
  user: UserTable,
  room: RoomTable,
  request: Exclude<ChatSendPayload, { next: true }>,
  /** In a group chat, the mate to answer (a regeneration: the replaced reply's, if not given). */
  speakerId?: string,
): Promise<StartedReply> {
  // A group's turn takes the transaction's way: its reply names a speaker.
  if (!request.regenerate && speakerId === undefined) {
    const at = now();
    const ids = { userMessageId: randomUUID(), replyId: randomUUID() };
    const roomId = room.id;
    const position = await writeTurnAtOnce(db, {
      userId: user.id,
      roomId,
      content: request.content,
      at,
      ...ids,
    }).catch((error: unknown) => {
      // Another message (a picture) took the position meanwhile: nothing was written.
      if (isUniqueViolation(error)) return null;
      throw error;
    });
    // Written at once (a chat to spend, no daily cap); else the transaction below
    // writes the turn, or says why it cannot.
    if (position !== null)
      return {
        user,
        room,
        userMessage: messageRow(
          { role: 'user', content: request.content, status: 'complete' },
          { id: ids.userMessageId, roomId, position, at },
        ),
        reply: messageRow(
          { role: 'mate', content: '', status: 'partial' },
          { id: ids.replyId, roomId, position: position + 1, at },
        ),
        droppedSpeech: [],
      };
  }
  return db.transaction().execute(async (trx) => {
    let droppedSpeech: string[] = [];
    const kept: string[] = [];
    const keptStatuses: MessageStatus[] = [];
    let shownVersion: number | undefined;
    const abandoned: string[] = [];
    let speaker = speakerId;
    let replacedId: string | null = null;
    if (request.regenerate) {
      // The room's row before anything else (the balances a dropped clip or an abandoned
      // reply gives back come after it), as a picture takes it: no deadlock between them.
      await holdRoomRow(trx, room.id);
      // Continue from the chosen user message (after an edit), or from the last one.
      const anchor = await findAnsweredMessage(trx, room.id, request.fromMessageId);
      if (!anchor)
        throw invalid(
          request.fromMessageId ? 'notices.chat.notYourMessage' : 'notices.chat.nothingToAnswer',
        );
      // Answering the last message again replaces its last reply only, and keeps that reply
      // and its own earlier versions as versions of the new one (swipes). Another reply
      // between them (a message before it deleted) stays as it is: regenerating never loses
      // one. After an edit, the conversation takes another turn from the edited message and
      // nothing after it is kept.
      let from = anchor.position;
      if (!request.fromMessageId) {
        const replaced = await findLastReplyAfter(trx, room.id, anchor.position);
        if (replaced) {
          // Versions left empty (a failed regeneration's) are not kept; which one was shown is.
          // Each keeps its state: a reply stopped part way stays cut off.
          const versions = versionsOf(replaced);
          const statuses = versionStatusesOf(replaced);
          const shown = Math.min(Math.max(0, replaced.swipe_index), versions.length - 1);
          versions.forEach((text, index) => {
            if (!text.trim()) return;
            if (index === shown) shownVersion = kept.length;
            kept.push(text);
            keptStatuses.push(statuses[index]!);
          });
          speaker ??= replaced.speaker_id ?? undefined;
          replacedId = replaced.id;
          from = replaced.position - 1;
        }
      }
      droppedSpeech = await dropSpeechIn(trx, { roomId: room.id, afterPosition: from });
      // A reply charged and never written (its server died, its send failed before the
      // stream) goes with what is replaced: its chat comes back below, or nothing would give
      // it. Marked failed by one conditional update each, as the sweep and a server's own
      // failure mark it: whichever marks it refunds it, once.
      for (const id of await emptyRepliesAfter(trx, room.id, from))
        if (await failIfEmpty(trx, id)) abandoned.push(id);
      // Pictures stay: they were paid for in gold coins and are not part of the reply.
      await forgetAfter(trx, room.id, from, now());
      await deleteTextAfter(trx, room.id, from);
    }
    const reply: NewMessage = {
      role: 'mate',
      content: '',
      status: 'partial',
      swipes: { others: kept, index: kept.length, statuses: keptStatuses },
      ...(speaker !== undefined && { speakerId: speaker }),
    };
    // The user's message and the empty reply go in together: one insert, one room update.
    const written = await appendMessages(
      trx,
      room.id,
      request.regenerate
        ? [reply]
        : [{ role: 'user', content: request.content, status: 'complete' }, reply],
    );
    const userMessage = request.regenerate ? null : written[0]!;
    const replyRow = written.at(-1)!;
    // A path forked at the reply replaced forks at its new version ("‹ 2 / 2 ›" stays on it).
    if (replacedId !== null) await moveForks(trx, room.id, replacedId, replyRow.id);
    // The balances after the room's row (taken by the append), as every append takes them.
    for (const id of abandoned)
      await refundChat(trx, user.id, {
        reason: { key: 'ledger.reasons.refundReplyAbandoned' },
        reference: { type: 'message', id },
      });
    // Charged last, for the reply it pays for; a refusal throws and rolls all of it back.
    requireSpentChat(
      await spendChat(trx, user.id, {
        reason: { key: 'ledger.reasons.chat' },
        reference: { type: 'message', id: replyRow.id },
      }),
    );
    // The mate's figures are not written here but once the reply's first words are out,
    // together with the other chats' (`countChat`): every send to a mate would write its row.
    return {
      user,
      room,
      userMessage,
      reply: replyRow,
      droppedSpeech,
      ...(shownVersion !== undefined && { shownVersion }),
    };
  });
}

/** Marks a reply that produced nothing as failed and gives its chat back, in one transaction. */
export async function failEmptyReply(
  db: Kysely<Database>,
  userId: string,
  replyId: string,
  reason: Reason,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Only a reply still empty and unfinished: a second call (or another server) refunds nothing.
    if (!(await failIfEmpty(trx, replyId))) return false;
    await refundChat(trx, userId, { reason, reference: { type: 'message', id: replyId } });
    return true;
  });
}

/**
 * Inside `trx` (the room's row held), gives back the chat of the room's reply `messageId` if it
 * is still empty and unfinished (charged, and its server died before its first word), marking
 * it failed by one conditional update, as the sweep marks it: before the person deletes it,
 * chooses another of its versions or writes its words by hand, after which the sweep would find
 * nothing to give back.
 */
export async function giveBackUnwritten(
  trx: Transaction<Database>,
  userId: string,
  roomId: string,
  messageId: string,
): Promise<void> {
  if (!(await failUnwrittenIn(trx, roomId, messageId))) return;
  await refundChat(trx, userId, {
    reason: { key: 'ledger.reasons.refundReplyAbandoned' },
    reference: { type: 'message', id: messageId },
  });
}

/**
 * Takes back a reply the person stopped before its first word, in one transaction: stopping is
 * their choice, not a failure, so nothing empty is kept to read as one. A regeneration gives
 * back the version the person was shown (`shownVersion`, else the latest kept), its other
 * versions around it as they were; a new reply is removed, and the
 * conversation ends on the person's message. The chat is given back.
 */
export async function dropStoppedReply(
  db: Kysely<Database>,
  userId: string,
  replyId: string,
  shownVersion?: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Only a reply still empty and unfinished: a second call (or another server) takes nothing.
    const reply = await findEmptyReply(trx, replyId);
    if (!reply) return false;
    const kept = fromJson<string[]>(reply.swipes, []);
    const taken =
      kept.length === 0
        ? await deleteIfEmpty(trx, replyId)
        : await restoreIfEmpty(
            trx,
            replyId,
            { kept, statuses: otherStatusesOf(reply) },
            shownVersion,
          );
    if (!taken) return false;
    await refundChat(trx, userId, {
      reason: { key: 'ledger.reasons.refundStopped' },
      reference: { type: 'message', id: replyId },
    });
    return true;
  });
}

/**
 * Charges one chat and starts one more reply in a group, by `speakerId`, without a message of
 * the person ("Continue", "Let X speak", or the next speaker of a turn): an empty `partial`
 * reply, paid for by a ledger spend that names it, in one transaction. A refusal (no chats
 * left, the daily cap reached) throws a `DomainError` and writes nothing.
 */
export async function startNextReply(
  db: Kysely<Database>,
  user: UserTable,
  room: RoomTable,
  speakerId: string,
): Promise<StartedReply> {
  return db.transaction().execute(async (trx) => {
    const [reply] = await appendMessages(trx, room.id, [
      { role: 'mate', content: '', status: 'partial', speakerId },
    ]);
    requireSpentChat(
      await spendChat(trx, user.id, {
        reason: { key: 'ledger.reasons.chat' },
        reference: { type: 'message', id: reply!.id },
      }),
    );
    return { user, room, userMessage: null, reply: reply!, droppedSpeech: [] };
  });
}
