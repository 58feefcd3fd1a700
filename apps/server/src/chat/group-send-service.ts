import { GROUP_LIMITS } from '@mates/api-client';
import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import { toBool } from '../db/dialect';
import { DomainError, invalid, refused } from '../domain/errors';
import { removeSpeechFiles } from '../voice/speech-clips';
import type { GroupPromptContext } from './conversation';
import { countOneMoreNext, membersOf, setNextsInRow, newestSpeakers } from './group-repository';
import { visibleMateIds } from './room-repository';
import { groupState, turnOrderOf, type GroupState } from './group-service';
import { nextSpeaker, planTurn } from './group-turns';
import { appendMessages, toMessage } from './messages';
import { findRoomMessage } from './message-repository';
import { requireModel } from './model-refusal';
import { generateAhead, replyDepsOf, writeReply } from './reply-service';
import type { ReplyGeneration } from './reply-generation';
import type { ReplyStream, Send, SendDeps } from './send-service';
import { textsFor } from '../i18n/texts';
import { isOutOfSpace } from '../domain/out-of-space';
import { countChat } from './turn-repository';
import { startNextReply, startTurn, type StartedReply } from './turn-service';
import { fillMacros } from './prompt';

/** How much of another member's card its fellows' prompts carry: who it is, in a few words. */
const ABOUT_CHARS = 240;

/** What `speakerId`'s prompt says of its group: the scene, the others, everyone's names. */
export function promptContext(state: GroupState, speakerId: string): GroupPromptContext {
  const about = (mateId: string, name: string) => {
    const mate = state.mates.get(mateId);
    // A card's "{{char}}" (V1: "<BOT>") is its own mate, not the speaker whose prompt fills
    // the macros later; "{{user}}" is left for it (the person).
    const text = fillMacros((mate?.tagline.trim() || mate?.description.trim()) ?? '', {
      char: name,
      user: '{{user}}',
    });
    return text.length > ABOUT_CHARS ? `${text.slice(0, ABOUT_CHARS).trimEnd()}…` : text;
  };
  return {
    speakerId,
    scenario: state.room.group_scenario ?? '',
    others: state.active
      .filter((member) => member.mateId !== speakerId)
      .map((member) => ({ name: member.name, about: about(member.mateId, member.name) })),
    names: new Map(state.rows.map((row) => [row.mate_id, row.name])),
  };
}

/** How far back the last speaker is looked for: past a whole turn and the person's message. */
const LAST_SPEAKER_LOOKBACK = GROUP_LIMITS.repliesPerTurn + 2;

/** The mate who wrote the newest of `messages` (newest first) that a mate wrote. */
const lastSpeakerOf = (messages: { role: string; speaker_id: string | null }[]) =>
  messages.find((message) => message.role === 'mate')?.speaker_id ?? null;

/**
 * Who speaks, in order, for a send in a group: a message's planned speakers (see
 * {@link planTurn}); on "Continue" the next by the group's order, or the member let speak; on
 * a regeneration the speaker of the reply replaced (or the next, if it left), and after an
 * edit the edited message's speakers again. "Continue"s in a row are bounded.
 */
async function speakersFor(deps: SendDeps, send: Send, state: GroupState): Promise<string[]> {
  const { db } = deps;
  const { request } = send;
  const { room, active } = state;
  const order = turnOrderOf(room);
  const recent = await newestSpeakers(db, room.id, LAST_SPEAKER_LOOKBACK);
  const lastSpeaker = lastSpeakerOf(recent);
  const isActive = (mateId: string | null) => active.some((member) => member.mateId === mateId);
  const next = () => nextSpeaker(active, order, lastSpeaker);
  if (request.next) {
    if (room.nexts_in_row >= GROUP_LIMITS.continuesInRow)
      throw refused('notices.group.talkedEnough');
    if (request.speakerId !== undefined) {
      if (!isActive(request.speakerId)) throw invalid('notices.group.notMember');
      return [request.speakerId];
    }
    return [next()!];
  }
  if (request.regenerate) {
    if (request.fromMessageId) {
      const edited = await findRoomMessage(db, room.id, request.fromMessageId);
      const planned = edited ? planTurn(active, order, edited.content) : [];
      if (planned.length > 0) return planned;
      if (!edited) return [next()!];
      // Nobody named: the one after whoever spoke last before the edited message (the replies
      // after it go with the edit).
      const before = await newestSpeakers(db, room.id, LAST_SPEAKER_LOOKBACK, edited.position);
      return [nextSpeaker(active, order, lastSpeakerOf(before))!];
    }
    // Another version of a reply is its own writer's: one that left keeps its reply as it is.
    if (lastSpeaker !== null && !isActive(lastSpeaker)) {
      const name = state.rows.find((row) => row.mate_id === lastSpeaker)?.name ?? '';
      throw refused('notices.group.speakerLeft', { name });
    }
    return [lastSpeaker ?? next()!];
  }
  return planTurn(active, order, request.content);
}

/**
 * A send in a group chat: the person's message (or a regeneration, or "Continue"), then each
 * speaker's reply in turn on one stream, each charged as one chat and saved as it grows. The
 * turn ends after the last speaker, at the first reply that fails, when the person stops, or
 * when their chats run out (said in an `error` event; the replies before stay). A message no
 * mate answers on its own (manual order) is saved and said so (`message-saved`).
 */
export async function sendGroupTurn(
  deps: SendDeps,
  send: Send,
  room: RoomTable,
  /** Whether the first reply may be asked for before the turn is charged (see `sendTurn`). */
  askAhead: boolean,
  controller: AbortController,
): Promise<void> {
  const { db, chat, config } = deps;
  const { user, request, language } = send;
  // `room` was read under the room's lock, which the caller holds until this returns: two
  // sends through two servers cannot both pass, the members cannot change meanwhile (changing
  // them takes the lock too), and the "Continue"s counted are those of every send before.
  let state: GroupState;
  let speakers: string[];
  let started: StartedReply;
  let early: ReplyGeneration | null = null;
  const replyDeps = replyDepsOf(deps, send);
  try {
    state = await groupState(db, user, room);
    if (state.active.length === 0) throw refused('room.groupGone');
    requireModel(chat.model);
    speakers = await speakersFor(deps, send, state);
    // The first speaker's reply is asked for while the turn is written, as a one-to-one
    // send's is (see `sendTurn`); not for someone whose chat may be refused.
    if (request.content !== undefined && speakers.length > 0 && askAhead)
      early = await generateAhead(
        replyDeps,
        { room, user, content: request.content, group: promptContext(state, speakers[0]!) },
        language,
        controller.signal,
      ).catch(() => null);
    if (speakers.length > 0 || request.content === undefined)
      started = await (
        request.next
          ? startNextReply(db, user, room, speakers[0]!)
          : startTurn(db, user, room, request, speakers[0])
      ).catch(async (error: unknown) => {
        // Refused or not written: the reply is not wanted, and nothing was charged.
        early?.stop();
        await early?.settled;
        throw error;
      });
    else {
      await countNexts(db, room, 'reset');
      // Nobody answers on their own: the message is kept, and the person chooses who speaks.
      const [message] = await appendMessages(db, room.id, [
        { role: 'user', content: request.content, status: 'complete' },
      ]);
      send.started();
      const stream = send.open(controller);
      stream.send({ type: 'message-saved', roomId: room.id, userMessage: toMessage(message!) });
      stream.done();
      return;
    }
    // "Continue"s in a row are counted until the person writes again: a new message, or one
    // edited and answered again (the "Continue"s after it went with the edit).
    if (request.next) await countNexts(db, room, 'one more');
    else if (request.content !== undefined || request.fromMessageId !== undefined)
      await countNexts(db, room, 'reset');
  } finally {
    // Saved or refused: the person's next send may start.
    send.started();
  }
  // Charged already: a file the store cannot remove now is logged, and the reply goes on.
  await removeSpeechFiles(config, started.droppedSpeech, send.log);
  // Only now, with the person's message saved, does the first byte go out.
  const stream = send.open(controller);
  try {
    await speakInTurn(deps, send, { state, speakers, started, early, controller }, stream.send);
  } catch (error) {
    // A fault between two speakers (the database, a full disk): the replies so far stay, and
    // the person reads why the turn stopped there, as after any other fault.
    const full = isOutOfSpace(error);
    send.log[full ? 'warn' : 'error'](
      `a group turn stopped in room ${room.id}: ${(error as Error).stack ?? String(error)}`,
    );
    const key = full ? 'notices.server.full' : 'notices.server.internal';
    stream.send({ type: 'error', message: textsFor(language)(key), messageId: null });
  } finally {
    stream.done();
  }
}

/** The turn's speakers, one reply after the other, from the first (started already) on. */
async function speakInTurn(
  deps: SendDeps,
  send: Send,
  turn: {
    state: GroupState;
    speakers: string[];
    started: StartedReply;
    early: ReplyGeneration | null;
    controller: AbortController;
  },
  report: ReplyStream['send'],
): Promise<void> {
  const { db } = deps;
  const { user, language } = send;
  const { state, speakers, early, controller } = turn;
  const { room } = turn.started;
  const replyDeps = replyDepsOf(deps, send);
  let started = turn.started;
  for (let index = 0; ; index += 1) {
    const speakerId = speakers[index]!;
    started.group = promptContext(state, speakerId);
    const whole = await writeReply(
      replyDeps,
      started,
      language,
      report,
      controller.signal,
      index === 0 ? early : null,
    );
    await countChat(db, { mateId: speakerId, userId: user.id }).catch((error: unknown) =>
      send.log.error(`could not count the chat in room ${room.id}: ${(error as Error).message}`),
    );
    if (!whole || controller.signal.aborted) return;
    // The next speaker still here: its creator may have closed it meanwhile, or the person
    // muted it since the turn began (one muted before and named in the message still speaks).
    while (
      index + 1 < speakers.length &&
      !(await mayStillSpeak(db, user, state, speakers[index + 1]!))
    )
      speakers.splice(index + 1, 1);
    if (index + 1 >= speakers.length) return;
    try {
      started = await startNextReply(db, user, room, speakers[index + 1]!);
    } catch (error) {
      // Out of chats midway: the replies so far stay, and the person is told why it stopped.
      if (!(error instanceof DomainError)) throw error;
      report({ type: 'error', message: error.sentence(language), messageId: null });
      return;
    }
  }
}

/**
 * Whether a speaker planned at the turn's start may still speak: `user` may still see its mate
 * (a member closed by its creator speaks no more), and the person has not muted it since.
 */
async function mayStillSpeak(
  db: Kysely<Database>,
  user: UserTable,
  state: GroupState,
  mateId: string,
): Promise<boolean> {
  if (!(await visibleMateIds(db, user, [mateId])).has(mateId)) return false;
  const mutedBefore = state.active.some((member) => member.mateId === mateId && member.muted);
  if (mutedBefore) return true;
  const row = (await membersOf(db, state.room.id)).find((member) => member.mate_id === mateId);
  return row !== undefined && row.left_at === null && !toBool(row.muted);
}

/** Counts one more "Continue" (or "Let X speak") in a row, or starts again at none. */
async function countNexts(
  db: Kysely<Database>,
  room: RoomTable,
  change: 'one more' | 'reset',
): Promise<void> {
  if (change === 'one more') await countOneMoreNext(db, room.id);
  else if (room.nexts_in_row !== 0) await setNextsInRow(db, room.id, 0);
}
