import { setTimeout } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { ChatSendPayload, ChatStreamEvent } from '@mates/api-client';
import type { Config } from '../config';
import type { Database, UserTable } from '../db/schema';
import type { Logger } from '../logging/logger';
import { invalid, missing, refused } from '../domain/errors';
import { isGroup } from './group-service';
import { sendGroupTurn } from './group-send-service';
import { removeSpeechFiles } from '../voice/speech-clips';
import type { ChatService } from './chat-service';
import { requireModel } from './model-refusal';
import { spentToday } from '../accounts/benefits';
import { sendContext } from './room-repository';
import { findOwnRoom } from './rooms';
import { startTurn } from './turn-service';
import { countChat } from './turn-repository';
import { generateAhead, replyDepsOf, writeReply } from './reply-service';
import type { MemoryKeeper } from './memory-keeper';

/** What a send needs from the server. */
export interface SendDeps {
  db: Kysely<Database>;
  chat: ChatService;
  config: Config;
  /** Told of each reply's prompt (see {@link MemoryKeeper}). */
  memory?: MemoryKeeper;
}

/** Where a reply's events go once the turn is saved: the caller's open stream. */
export interface ReplyStream {
  send: (event: ChatStreamEvent) => void;
  /** Ends the stream after the last event. */
  done: () => void;
}

/** One send: who sends what, and how the reply reaches them. */
export interface Send {
  user: UserTable;
  request: ChatSendPayload;
  /** The caller's language (the stream's sentences). */
  language: string;
  /** The request's logger. */
  log: Logger;
  /** Called once the turn is saved or refused: the next send waiting may start. */
  started: () => void;
  /**
   * Opens the reply's stream, called only once the person's message is saved (nothing goes out
   * before); the caller leaving aborts `controller`.
   */
  open: (controller: AbortController) => ReplyStream;
}

/**
 * A message (or a regeneration) and the mate's reply, streamed as it is written. Refusals (a
 * room not the caller's, a mate gone, a reply already being written, no model, no chats left)
 * are thrown as `DomainError`s before anything is written, so the person's text stays in their
 * composer. One reply at a time per room, on every server (the room's lock).
 */
export async function sendTurn(deps: SendDeps, send: Send): Promise<void> {
  const { db, chat } = deps;
  const { user, request } = send;
  // The room's lock before anything is read: two sends through two servers cannot both pass,
  // and what the send reads (the room, its newest words for the prompt) no edit, delete or
  // other reply changes until it is done. Read before the lock, an edit made between the read
  // and the lock had not reached the prompt (PostgreSQL).
  const controller = await claimRoom(deps, send);
  try {
    // The room, its mate's visibility and the caller's chats, in one read.
    const context = await sendContext(db, user, request.roomId, request.content !== undefined);
    if (!context) throw missing('notices.notFound.room');
    const { room } = context;
    // A group's turn has its own way: several speakers, each with its own prompt.
    if (isGroup(room)) {
      // Only a new message's first reply is asked for ahead ("Continue" and regenerations not).
      const ahead = request.content !== undefined && (await askAhead(db, user, context));
      return await sendGroupTurn(deps, send, room, ahead, controller);
    }
    await sendOneReply(deps, send, context, controller);
  } finally {
    await chat.end(request.roomId, controller);
  }
}

/**
 * How long a send waits, in turn, for its room while a reply is still written there: about 0.6 s
 * in all. A reply the person has just stopped takes a few milliseconds more to end (the server
 * sees the stop, saves what was written and frees the room), and "another version" asked the
 * moment they pressed Stop is not refused for it. A reply still written after the waits (in
 * another tab) is refused as before.
 */
export const BUSY_ROOM_WAITS_MS = [5, 10, 20, 40, 80, 150, 300];

/**
 * The room's lock for a send, waiting {@link BUSY_ROOM_WAITS_MS} while another reply ends; a
 * room still busy is refused. The send gives up its place among those starting while it waits.
 */
async function claimRoom(deps: SendDeps, send: Send): Promise<AbortController> {
  const { db, chat } = deps;
  const { roomId } = send.request;
  const controller = await chat.begin(roomId);
  if (controller) return controller;
  // Someone else's room answers as if it did not exist, busy or not, and at once.
  await findOwnRoom(db, send.user.id, roomId);
  send.started();
  for (const wait of BUSY_ROOM_WAITS_MS) {
    await setTimeout(wait);
    const claimed = await chat.begin(roomId);
    if (claimed) return claimed;
  }
  throw refused('notices.chat.replyInProgress');
}

/**
 * Whether a new message's reply may be asked for before its turn is written and charged: only
 * from someone with a chat left and, under a daily cap, a chat of today's still to spend (one
 * small read, for those with a cap only; the turn counts again as it charges), so that a send
 * refused for its chat never makes the provider work.
 */
async function askAhead(
  db: Kysely<Database>,
  user: UserTable,
  context: { chatsLeft: number; chatsCap: number | null },
): Promise<boolean> {
  if (context.chatsLeft < 1) return false;
  if (context.chatsCap === null) return true;
  return (await spentToday(db, user.id)).chats < context.chatsCap;
}

/** A one-to-one room's turn, its lock held by {@link sendTurn}. */
async function sendOneReply(
  deps: SendDeps,
  send: Send,
  context: NonNullable<Awaited<ReturnType<typeof sendContext>>>,
  controller: AbortController,
): Promise<void> {
  const { db, chat, config } = deps;
  const { user, request, language } = send;
  const { room } = context;
  if (request.next) throw invalid('notices.group.notGroup');
  if (!context.mateVisible) throw refused('room.readOnly');
  requireModel(chat.model);
  const replyDeps = replyDepsOf(deps, send);
  // A new message's reply is asked for while the turn is written: the provider's first
  // words are on their way meanwhile, and held until the message is saved. Should that
  // fail (the prompt could not be built), the reply is asked for again once the turn is
  // written, as a regeneration's is, and the failure is reported in the stream and refunded.
  // Not for someone with no chat left, nor one a daily cap may refuse: the send is refused, and
  // the provider (which an operator may pay by the token) is never asked.
  const early =
    request.content === undefined || !(await askAhead(db, user, context))
      ? null
      : await generateAhead(
          replyDeps,
          {
            room,
            user,
            content: request.content,
            known: { mate: context.mate, words: context.words },
          },
          language,
          controller.signal,
        ).catch(() => null);
  const started = await startTurn(db, user, room, request).catch(async (error: unknown) => {
    // Refused or not written: the reply is not wanted, and nothing was charged.
    send.started();
    early?.stop();
    await early?.settled;
    throw error;
  });
  send.started();
  // Charged already: a file the store cannot remove now is logged, and the reply goes on.
  await removeSpeechFiles(config, started.droppedSpeech, send.log);
  // Only now, with the user's message saved, does the first byte go out.
  const stream = send.open(controller);
  // The mate's figures, after the first byte and with the other sends' (see `countChat`).
  const counted = countChat(db, { mateId: room.mate_id, userId: user.id }).catch((error: unknown) =>
    send.log.error(`could not count the chat in room ${room.id}: ${(error as Error).message}`),
  );
  await writeReply(replyDeps, started, language, stream.send, controller.signal, early);
  await counted;
  stream.done();
}
