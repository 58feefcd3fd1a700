import { RoomDeleted, ServerStopping, type ChatService } from './chat-service';
import type { Config } from '../config';
import { RoomLockLost } from './room-locks';
import type { Kysely } from 'kysely';
import type { ChatStreamEvent, MessageStatus } from '@mates/api-client';
import type { Database, RoomTable, UserTable } from '../db/schema';
import { getBenefits } from '../accounts/benefits';
import type { LanguageModel } from '../llm/language-model';
import { ProviderError } from '../domain/provider-error';
import { textsFor } from '../i18n/texts';
import { toMessage } from './messages';
import { saveReplyText } from './turn-repository';
import {
  fittingTurns,
  loadConversation,
  promptHold,
  type GroupPromptContext,
  type PromptHold,
} from './conversation';
import type { MemoryKeeper } from './memory-keeper';
import type { KnownRows } from './conversation-repository';
import { dropStoppedReply, failEmptyReply, type StartedReply } from './turn-service';
import { startGeneration, type ReplyGeneration } from './reply-generation';
import { withoutUnfinishedSentence } from './unfinished-sentence';
import type { Logger } from '../logging/logger';
import { isOutOfSpace } from '../domain/out-of-space';

/** What writing a reply needs. */
export interface ReplyDeps {
  db: Kysely<Database>;
  model: LanguageModel;
  /** The request's logger (its id and user). */
  log: Logger;
  maxTokens: number;
  /** How often the growing reply is saved, so that a reload shows it. */
  saveEveryMs: number;
  /** Told of each prompt: it holds the last for "What the mate sees", and writes memories. */
  memory?: MemoryKeeper;
}

/** What writing a send's replies needs: the server's, and the request's logger. */
export function replyDepsOf(
  deps: {
    db: Kysely<Database>;
    chat: Pick<ChatService, 'model' | 'saveEveryMs'>;
    config: Pick<Config, 'llm'>;
    memory?: MemoryKeeper;
  },
  send: { log: Logger },
): ReplyDeps {
  const { db, chat, config } = deps;
  return {
    db,
    model: chat.model,
    log: send.log,
    maxTokens: config.llm.maxTokens,
    saveEveryMs: chat.saveEveryMs,
    ...(deps.memory && { memory: deps.memory }),
  };
}

/** The reply could not be stored (a full disk, a lost database). */
class ReplyNotSavedError extends Error {
  override readonly name = 'ReplyNotSavedError';
}

/**
 * The reply was no longer there to save: its room was deleted meanwhile (through a server that
 * could not stop this reply first). Nothing is left to save it in; the reply stops.
 */
class ReplyGoneError extends Error {
  override readonly name = 'ReplyGoneError';
}

/**
 * Saves a growing reply one write at a time. A write that fails, or finds the reply gone, is
 * logged, stops the generation through `onFailure` and is reported by
 * {@link ReplySaver.settle}; it never escapes as an unhandled rejection.
 */
function replySaver(deps: ReplyDeps, replyId: string, onFailure: () => void) {
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const write = (content: string, status: MessageStatus) => {
    chain = chain.then(async () => {
      if (failure) return;
      try {
        if (await saveReplyText(deps.db, { replyId, content, status })) return;
        failure = new ReplyGoneError(`reply ${replyId} is no longer there`);
        deps.log.info(`reply ${replyId} stopped: its room was deleted`);
        onFailure();
      } catch (error) {
        failure = error;
        deps.log.error(`could not save reply ${replyId}: ${(error as Error).message}`);
        onFailure();
      }
    });
  };
  return {
    write,
    /** Waits for the writes so far; throws if one failed. */
    async settle(): Promise<void> {
      await chain;
      if (failure instanceof ReplyGoneError) throw failure;
      if (failure) throw new ReplyNotSavedError('the reply could not be saved', { cause: failure });
    },
  };
}

/**
 * Generates a started reply and reports it as it grows: `reply-start`, `reply-delta`…, then
 * `reply-end`, or `error` with a sentence in the caller's language. The reply is saved as it
 * grows and when it ends: `complete`; cut off (the caller left, the provider stopped, a save
 * failed) it keeps what arrived as `partial`; with nothing at all it is `error` and the chat
 * is given back. Never throws: every failure is logged and reported. Whether it ended whole
 * (`reply-end`).
 */
export async function writeReply(
  deps: ReplyDeps,
  started: StartedReply,
  language: string,
  report: (event: ChatStreamEvent) => void,
  signal: AbortSignal,
  early: ReplyGeneration | null = null,
): Promise<boolean> {
  const { db } = deps;
  const { user, room, reply } = started;
  const t = textsFor(language);
  let generation = early;
  const saver = replySaver(deps, reply.id, () => generation?.stop());
  let text = '';
  if (early) deps.memory?.replied(room.id, reply.id);
  report({
    type: 'reply-start',
    roomId: room.id,
    userMessage: started.userMessage ? toMessage(started.userMessage) : null,
    messageId: reply.id,
    ...(reply.speaker_id !== null && { speakerId: reply.speaker_id }),
  });
  try {
    generation ??= await generateFor(deps, started, language, signal);
    let lastSave = Date.now();
    generation.read((piece) => {
      text += piece;
      report({ type: 'reply-delta', text: piece });
      const at = Date.now();
      // Blank lines only are no words yet: a server that dies now leaves the reply empty, as
      // the sweep that gives back its chat looks for.
      if (at - lastSave > deps.saveEveryMs && text.trim()) {
        lastSave = at;
        saver.write(text, 'partial');
      }
    });
    const outcome = await generation.settled;
    if (!outcome.ok) throw outcome.error;
    const result = outcome.result;
    await saver.settle();
    const why = cutOffSentence(signal);
    if (why) {
      // The server is stopping, or lost the room: keep what arrived, and tell the reader why.
      const messageId = await finishCutOff();
      // A room being deleted takes the saved reply with it: there is none to point at.
      report({
        type: 'error',
        message: t(why),
        messageId: why === 'reply.gone' ? null : messageId,
      });
      return false;
    }
    if (signal.aborted) {
      // The caller left or stopped: keep what arrived; nobody is listening for an event.
      await finishCutOff();
      return false;
    }
    // Blank lines only are no reply: the prompt and the versions take them for none.
    if (!text.trim()) throw new ProviderError('The model provider sent an empty reply.', 'empty');
    // Stopped at its length mid-sentence, it is kept as far as its last whole one (the reader's
    // screen reads the saved reply again once it ends).
    if (result.finishReason === 'length') text = withoutUnfinishedSentence(text, language);
    saver.write(text, 'complete');
    await saver.settle();
    report({
      type: 'reply-end',
      messageId: reply.id,
      finishReason: result.finishReason,
      usage: { promptTokens: result.promptTokens, completionTokens: result.completionTokens },
      benefits: await getBenefits(db, user.id),
    });
    return true;
  } catch (error) {
    // Nothing is left to save it in, nor a chat to give back (the deletion did, for a reply
    // with no word): the reader, if any, is told.
    if (error instanceof ReplyGoneError) {
      report({ type: 'error', message: t('reply.gone'), messageId: null });
      return false;
    }
    if (!signal.aborted) {
      // A provider's failure or a full disk is an outside fault; anything else is ours.
      const level = error instanceof ProviderError || isOutOfSpace(error) ? 'warn' : 'error';
      deps.log[level](`chat reply failed in room ${room.id}: ${detailOf(error)}`);
    }
    const messageId = await finishCutOff().catch((finishing: unknown) => {
      if (finishing instanceof ReplyGoneError) return null;
      deps.log.error(`could not finish reply ${reply.id}: ${detailOf(finishing)}`);
      return text.trim() ? reply.id : null;
    });
    const why = cutOffSentence(signal) ?? sentenceFor(error);
    // A room being deleted takes the saved reply with it: there is none to point at.
    report({ type: 'error', message: t(why), messageId: why === 'reply.gone' ? null : messageId });
    return false;
  }

  /**
   * Saves what arrived as `partial`; with nothing (or blank lines only), takes back a reply the
   * person stopped (or left) before its first word, or fails and refunds an empty one. The saved
   * id.
   */
  async function finishCutOff(): Promise<string | null> {
    if (text.trim()) {
      saver.write(text, 'partial');
      await saver.settle();
      return reply.id;
    }
    if (signal.aborted && cutOffSentence(signal) === null)
      await dropStoppedReply(db, user.id, reply.id, started.shownVersion);
    else
      await failEmptyReply(db, user.id, reply.id, {
        key:
          signal.reason instanceof RoomDeleted
            ? 'ledger.reasons.refundRoomDeleted'
            : 'ledger.reasons.refundNoReply',
      });
    return null;
  }
}

/** The sentence for a reply this server cut off, or `null` when its reader left. */
function cutOffSentence(signal: AbortSignal): string | null {
  if (!signal.aborted) return null;
  if (signal.reason instanceof ServerStopping) return 'reply.shutdown';
  if (signal.reason instanceof RoomDeleted) return 'reply.gone';
  if (signal.reason instanceof RoomLockLost) return 'reply.internal';
  return null;
}

function sentenceFor(error: unknown): string {
  // A full disk is a fault outside the server, said as the 5007 of any other call says it.
  if (isOutOfSpace(error)) return 'notices.server.full';
  if (error instanceof ProviderError) return `reply.${error.failure}`;
  if (error instanceof ReplyNotSavedError) return 'reply.notSaved';
  return 'reply.internal';
}

function detailOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return error instanceof ProviderError ? `${error.message}${cause}` : `${error.stack}${cause}`;
}

/** What this server's last prompt in `room` tells the next one (see `fittingTurns`). */
function heldPrompt(deps: ReplyDeps, room: RoomTable): PromptHold {
  return promptHold(deps.memory?.lastPrompt(room.id)?.prompt);
}

/** The turn's conversation, read now (the user's new message included), and its reply started. */
async function generateFor(
  deps: ReplyDeps,
  started: StartedReply,
  language: string,
  signal: AbortSignal,
): Promise<ReplyGeneration> {
  const { room, user, reply } = started;
  const prompt = await fittingTurns(
    async (recent) => ({
      ...(await loadConversation(deps.db, room, user, reply.id, recent, undefined, started.group)),
      language,
    }),
    deps.model,
    deps.maxTokens,
    heldPrompt(deps, room),
  );
  const generation = startGeneration(deps.model, prompt.turns, {
    maxTokens: deps.maxTokens,
    signal,
    stop: prompt.stop,
    speaker: prompt.report.names.char,
    owner: user.id,
  });
  deps.memory?.built(room, prompt, reply.id);
  return generation;
}

/**
 * Starts the reply to a new message before the turn is written: the conversation so far with
 * `content` as its last turn, which is what {@link writeReply} would read once the message is
 * saved. Its text is held until {@link writeReply} reads it; stop it if the turn is refused.
 */
export async function generateAhead(
  deps: ReplyDeps,
  turn: {
    room: RoomTable;
    user: UserTable;
    content: string;
    group?: GroupPromptContext;
    /** What the caller read already: the mate's row, the room's newest words (see `sendContext`). */
    known?: KnownRows;
  },
  language: string,
  signal: AbortSignal,
): Promise<ReplyGeneration> {
  const prompt = await fittingTurns(
    async (recent) => ({
      ...(await loadConversation(
        deps.db,
        turn.room,
        turn.user,
        null,
        recent,
        turn.content,
        turn.group,
        turn.known,
      )),
      language,
    }),
    deps.model,
    deps.maxTokens,
    heldPrompt(deps, turn.room),
  );
  const generation = startGeneration(deps.model, prompt.turns, {
    maxTokens: deps.maxTokens,
    signal,
    stop: prompt.stop,
    speaker: prompt.report.names.char,
    owner: turn.user.id,
  });
  deps.memory?.built(turn.room, prompt, null);
  // Node's HTTP client writes a request on its connection at the next tick. The turn's
  // statements that follow run back to back without giving the loop a turn, so the request
  // would wait for all of them (1.3 ms of the first word at one stream, #20): let it go first.
  await new Promise((resolve) => process.nextTick(resolve));
  return generation;
}
