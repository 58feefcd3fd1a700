import { randomUUID } from 'node:crypto';
import type {
  CallClientMessage,
  CallEndReason,
  CallServerMessage,
  CallTicket,
  CallTranscriber,
  ChatStreamEvent,
} from '@mates/api-client';
import type { CallTicketTable, UserTable } from '../db/schema';
import { getBenefits } from '../accounts/benefits';
import { consume } from '../accounts/rate-limits';
import { hashToken, randomToken } from '../accounts/secrets';
import { sessionWithUser } from '../accounts/session-repository';
import { DomainError, invalid, refused } from '../domain/errors';
import type { Logger } from '../logging/logger';
import { findOwnRoom } from '../chat/rooms';
import { sendTurn, type ReplyStream, type SendDeps } from '../chat/send-service';
import { dropStoppedReply } from '../chat/turn-service';
import { dropSpeech } from './speech-clips';
import type { RateLimits } from '../accounts/rate-limits';
import type { SpeechEngine, TranscriptionEngine } from './speech-engine';
import { sentenceStream, speechPieces } from './speech-pieces';
import { openInline, spokenText } from './spoken-text';
import { mateVoice, voicesOf } from './voices';
import { transcribe } from './transcription-service';
import { wavFacts } from './wav';
import {
  insertCallTicket,
  markCallMessages,
  saveCutReply,
  speakingMates,
  takeCallTicket,
} from './call-repository';

/** How long a ticket opens the call's socket. */
export const CALL_TICKET_MS = 60_000;

/** The longest text a browser's recognition may send as one turn (a typed message's bound). */
export const CALL_TEXT_MAX = 8000;

/**
 * How many of the person's utterances may wait for their answer behind the one being answered.
 * Each waits in memory (a recording of up to 2 MB): more are refused at once, so that a socket
 * sending without pause cannot grow the server until it dies. A person who goes on talking
 * while the mate answers leaves one or two waiting.
 */
export const CALL_TURNS_WAITING = 3;

/** What calls need: a send's, and the engines. */
export interface CallDeps extends SendDeps {
  limits: RateLimits;
  speech: SpeechEngine | null;
  transcription: TranscriptionEngine | null;
  log: Logger;
}

/**
 * `POST /call/start`: a one-time ticket to open a call with one of the caller's rooms. Refused
 * when voice is not set up (5007), for a room not theirs (4004), with no chat left (5007), and
 * past the person's starts (`limits.callStart`). The ticket is stored hashed, with the session
 * that asked, for a minute: any server on the database opens it, once.
 */
export async function startCall(
  deps: CallDeps,
  caller: { user: UserTable; token: string },
  roomId: string,
): Promise<CallTicket> {
  if (!deps.speech) throw refused('notices.voice.notSetUp');
  await consume(deps.limits.callStart, caller.user.id);
  const room = await findOwnRoom(deps.db, caller.user.id, roomId);
  await requireChatLeft(deps, caller.user.id);
  const ticket = randomToken();
  const callId = randomUUID();
  const transcriber: CallTranscriber = deps.transcription ? 'server' : 'browser';
  const expiresAt = new Date(Date.now() + CALL_TICKET_MS).toISOString();
  await insertCallTicket(deps.db, {
    ticket_hash: hashToken(ticket),
    call_id: callId,
    user_id: caller.user.id,
    room_id: room.id,
    session_hash: hashToken(caller.token),
    transcriber,
    expires_at: expiresAt,
  });
  return {
    callId,
    socketPath: `/api/call/socket?ticket=${encodeURIComponent(ticket)}`,
    expiresAt,
    transcriber,
  };
}

/**
 * Refuses (5007, as a send would) a person with no chat left: a call's words cost one each,
 * and words said without one would be lost with the refusal. The send still charges in its own
 * transaction; this only tells them first.
 */
async function requireChatLeft(deps: Pick<CallDeps, 'db'>, userId: string): Promise<void> {
  if ((await getBenefits(deps.db, userId)).chats < 1) throw refused('notices.balance.noChatsLeft');
}

/** The call a ticket opens, once: `undefined` when it is unknown, used or too old. */
export function openTicket(
  deps: Pick<CallDeps, 'db'>,
  ticket: string,
): Promise<CallTicketTable | undefined> {
  return takeCallTicket(deps.db, hashToken(ticket));
}

/** The user of a session still open, by its hash; `null` once it ended or expired. */
export async function sessionUser(
  deps: Pick<CallDeps, 'db'>,
  sessionHash: string,
): Promise<UserTable | null> {
  const row = await sessionWithUser(deps.db, sessionHash);
  if (!row || Date.parse(row.session_expires_at) <= Date.now()) return null;
  const { session_expires_at: _expires, session_seen_at: _seen, ...user } = row;
  return user;
}

/** Where a call's messages and audio go: the socket, as the transport layer wraps it. */
export interface CallLine {
  send: (message: CallServerMessage) => void;
  /** One binary frame: the audio of the sentence announced just before. */
  sendAudio: (audio: Uint8Array) => void;
  /** Closes the line after `ended` (nothing when it is gone already). */
  close: () => void;
  /** A failure the call survives, said to the person (a refusal, an engine's failure). */
  fail: (error: unknown) => void;
}

/** One reply of the mate in a call, as it is written and spoken. */
interface SpokenReply {
  messageId: string;
  speakerId: string;
  /** The reply's text so far, as written. */
  text: string;
  /**
   * Slices of `text` in order; `index` is the number of the first sentence of a slice whose
   * audio went out (a slice may say several, or none).
   */
  slices: { raw: string; index: number | null }[];
  /**
   * Sentences whose audio went out, numbered in that order: a sentence that could not be
   * spoken takes no number, so the browser's count of clips begun names what was heard.
   */
  sent: number;
  /** Sentences held back while a stage direction or a link they begin is not closed yet. */
  held: string;
  /** The same sentences one by one: an opening never closed is text, said sentence by sentence. */
  heldParts: string[];
  sentences: ReturnType<typeof sentenceStream>;
  /** The reply is written (or failed): no more sentences come. */
  written: boolean;
  /** Saved cut (a barge-in, the call ended): nothing more of it goes out. */
  cut: boolean;
  /** Its `reply-end` went out: every sentence of it was sent. */
  over: boolean;
  /** Stops its synthesis. */
  quiet: AbortController;
}

/** A turn in progress: its generation's controller and when it ends. */
interface Turn {
  controller: AbortController | null;
  replies: SpokenReply[];
  done: Promise<void>;
}

/** What opened the call: its ticket's row. */
export type CallOpening = Pick<
  CallTicketTable,
  'call_id' | 'user_id' | 'room_id' | 'session_hash' | 'transcriber'
>;

/**
 * One open voice call: the person's utterances (or their browser's words) become their
 * messages through the same send a typed message takes (the chat charged, memory told, the
 * message saved before the reply starts), and the reply is spoken sentence by sentence as it is
 * written, in its speaker's voice. A barge-in stops it and saves what was heard.
 */
export class VoiceCall {
  readonly id: string;
  readonly userId: string;
  readonly sessionHash: string;
  #ended: CallEndReason | null = null;
  /** Turns run one after another. */
  #turns: Promise<void> = Promise.resolve();
  #turn: Turn | null = null;
  /** Replies by id, for a barge-in that comes once a reply was written (its audio still plays). */
  readonly #replies = new Map<string, SpokenReply>();
  /** What goes out, in order: a sentence waits for its audio, a reply's end for its sentences. */
  #outbox: Promise<void> = Promise.resolve();
  /** Synthesis runs one sentence at a time, in order. */
  #speaking: Promise<unknown> = Promise.resolve();
  /** The reply whose `reply-start` went out last: its words go out at once. */
  #onLine: string | null = null;
  #idle: NodeJS.Timeout | undefined;
  /** Turns queued or running, their sentences not all sent yet: the idle clock waits for them. */
  #working = 0;
  /** Work that must finish before the server closes: cut replies being saved. */
  readonly #settling = new Set<Promise<unknown>>();
  readonly #voices = new Map<string, Promise<string>>();

  constructor(
    private readonly deps: CallDeps & { idleMs: number },
    private readonly opening: CallOpening,
    private user: UserTable,
    private readonly line: CallLine,
    private readonly log: Logger,
  ) {
    this.id = opening.call_id;
    this.userId = opening.user_id;
    this.sessionHash = opening.session_hash;
  }

  get ended(): CallEndReason | null {
    return this.#ended;
  }

  /** Says the call is open, and starts waiting for the person to speak. */
  open(): void {
    this.line.send({
      type: 'ready',
      callId: this.id,
      roomId: this.opening.room_id,
      transcriber: this.opening.transcriber as CallTranscriber,
    });
    this.#wake();
    // Made ready before the first sentence: the markdown reader loaded, the mate's voice found.
    spokenText('').catch(() => {});
    this.#voiceOf('').catch(() => {});
  }

  /** One utterance of the person: a WAV file (4000 when it is not one, or is too long). */
  hear(audio: Uint8Array): void {
    if (this.#ended) return;
    this.#wake();
    if (!this.deps.transcription) {
      this.line.fail(invalid('notices.call.badAudio', { seconds: 30 }));
      return;
    }
    const facts = wavFacts(audio);
    if (!facts.ok) {
      this.line.fail(invalid('notices.call.badAudio', { seconds: facts.maxSeconds }));
      return;
    }
    if (this.#roomToWait()) this.#queue({ audio });
  }

  /** Whether the person's words may wait for their turn (see {@link CALL_TURNS_WAITING}). */
  #roomToWait(): boolean {
    if (this.#working <= CALL_TURNS_WAITING) return true;
    this.line.fail(refused('notices.call.waitForAnswer'));
    return false;
  }

  /** A JSON message of the person's browser. */
  take(message: CallClientMessage): void {
    if (this.#ended) return;
    switch (message.type) {
      case 'text': {
        const text = message.text.trim();
        if (!text) return;
        this.#wake();
        if (text.length > CALL_TEXT_MAX) {
          this.line.fail(invalid('notices.call.tooLong', { count: CALL_TEXT_MAX }));
          return;
        }
        if (this.#roomToWait()) this.#queue({ text });
        return;
      }
      case 'barge-in':
        this.#wake();
        this.#track(this.#bargeIn(message.messageId, message.heard));
        return;
      case 'mute':
        // Muted: nothing is expected; the idle clock still runs (a call muted for long ends).
        return;
      case 'hang-up':
        void this.end('hang-up');
        return;
    }
  }

  /**
   * Ends the call: the reply being written stops and is saved as far as it was spoken, the
   * person is told why (unless the line is gone), and the line closes. Resolves once saved.
   */
  async end(reason: CallEndReason, { tell = true }: { tell?: boolean } = {}): Promise<void> {
    if (this.#ended) return this.settled();
    this.#ended = reason;
    clearTimeout(this.#idle);
    // Stopped while written or still spoken (a model writes faster than speech is made), in
    // this turn or one before it whose words are still going out: saved as what went out to
    // the person, marked cut.
    for (const reply of this.#replies.values())
      if (!reply.cut && !reply.over) this.#track(this.#cut(reply, reply.sent, false));
    const turn = this.#turn;
    if (turn?.controller && !turn.controller.signal.aborted) turn.controller.abort();
    if (tell) this.line.send({ type: 'ended', reason });
    this.line.close();
    await this.settled();
  }

  /** Resolves once what the call was saving is saved. */
  async settled(): Promise<void> {
    await this.#turn?.done;
    while (this.#settling.size > 0) await Promise.allSettled([...this.#settling]);
  }

  #track(work: Promise<unknown>): void {
    const tracked = work
      .catch((error: unknown) =>
        this.log.error(`voice call ${this.id}: ${(error as Error).stack ?? String(error)}`),
      )
      .finally(() => this.#settling.delete(tracked));
    this.#settling.add(tracked);
  }

  /**
   * The person spoke (or barged in), or the mate's last sentence went out: the idle clock starts
   * again, unless a turn is still being answered (a story longer than the idle time is not cut).
   */
  #wake(): void {
    clearTimeout(this.#idle);
    if (this.#working > 0 || this.#ended) return;
    this.#idle = setTimeout(() => void this.end('idle'), this.deps.idleMs);
    this.#idle.unref();
  }

  #queue(input: { audio: Uint8Array } | { text: string }): void {
    this.#working += 1;
    clearTimeout(this.#idle);
    const run = this.#turns.then(() => this.#runTurn(input));
    this.#turns = run
      .catch((error: unknown) => {
        this.log.error(`voice call ${this.id}: a turn failed: ${(error as Error).stack}`);
        this.line.fail(error);
      })
      .finally(() =>
        // After what the turn says went out: the clock runs from the mate's last words.
        this.#post(() => {
          this.#working -= 1;
          this.#wake();
        }),
      );
  }

  async #runTurn(input: { audio: Uint8Array } | { text: string }): Promise<void> {
    if (this.#ended) return;
    // The session read again at each turn: a signed-out person's words are not sent.
    const user = await sessionUser(this.deps, this.sessionHash);
    if (!user) {
      await this.end('signed-out');
      return;
    }
    this.user = user;
    // Told before the words are taken (and transcribed), not after: they would be lost.
    try {
      await requireChatLeft(this.deps, user.id);
    } catch (error) {
      this.line.fail(error);
      return;
    }
    let text: string;
    if ('audio' in input) {
      this.line.send({ type: 'transcribing' });
      try {
        const heard = await transcribe(
          this.deps,
          { userId: user.id, log: this.log },
          async () => ({ audio: input.audio, mimeType: 'audio/wav', language: user.language }),
          AbortSignal.timeout(120_000),
        );
        text = heard.text.trim();
      } catch (error) {
        this.line.fail(error);
        return;
      }
      if (this.#ended) return;
      if (!text) {
        this.line.fail(refused('notices.call.nothingHeard'));
        return;
      }
      text = text.slice(0, CALL_TEXT_MAX);
    } else text = input.text;
    let finished!: () => void;
    const turn: Turn = {
      controller: null,
      replies: [],
      done: new Promise<void>((resolve) => (finished = resolve)),
    };
    this.#turn = turn;
    try {
      await sendTurn(this.deps, {
        user,
        request: { roomId: this.opening.room_id, content: text },
        language: user.language,
        log: this.log,
        started: () => {},
        open: (controller) => {
          turn.controller = controller;
          // Ended while the turn was saved: the reply is not wanted (the message stays).
          if (this.#ended) controller.abort();
          return this.#replyStream(turn);
        },
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.line.fail(error);
    } finally {
      for (const reply of turn.replies) this.#finishWriting(reply);
      finished();
    }
  }

  /** The send's events, turned into the call's messages. */
  #replyStream(turn: Turn): ReplyStream {
    let reply: SpokenReply | null = null;
    return {
      send: (event: ChatStreamEvent) => {
        switch (event.type) {
          case 'message-saved': {
            const marked = this.#mark([event.userMessage.messageId]);
            this.#post(async () => {
              await marked;
              this.line.send({
                type: 'transcript',
                messageId: event.userMessage.messageId,
                text: event.userMessage.content,
                // Nobody answers on their own: the person is not left waiting for a reply.
                unanswered: true,
              });
            });
            return;
          }
          case 'reply-start': {
            if (reply) this.#finishWriting(reply);
            const user = event.userMessage;
            // Marked before the person is told: a transcript they saw is a message of the call.
            const marked = this.#mark(user ? [user.messageId, event.messageId] : [event.messageId]);
            if (user)
              this.#post(async () => {
                await marked;
                this.line.send({
                  type: 'transcript',
                  messageId: user.messageId,
                  text: user.content,
                });
              });
            reply = this.#newReply(event.messageId, event.speakerId);
            turn.replies.push(reply);
            // Started once the call had ended (words said just before a hang-up): nobody hears
            // it, so it is taken back, its chat given back, whatever the model wrote by then.
            if (this.#ended) this.#track(this.#cut(reply, 0, false));
            const started = reply;
            this.#post(() => {
              if (started.cut) return;
              this.#onLine = started.messageId;
              this.line.send({
                type: 'reply-start',
                messageId: started.messageId,
                ...(event.speakerId !== undefined && { speakerId: event.speakerId }),
              });
            });
            return;
          }
          case 'reply-delta': {
            if (!reply || reply.cut) return;
            const current = reply;
            current.text += event.text;
            const words = () =>
              this.line.send({
                type: 'reply-text',
                messageId: current.messageId,
                text: event.text,
              });
            if (this.#onLine === current.messageId) words();
            else this.#post(() => void (current.cut || words()));
            for (const raw of current.sentences.push(event.text)) this.#say(current, raw);
            return;
          }
          case 'reply-end':
            if (reply) this.#finishWriting(reply);
            return;
          case 'error':
            this.#post(() => this.line.fail(new CallFailure(event.message)));
            if (reply) {
              // Nothing saved (`messageId: null`): the reply is gone.
              if (event.messageId === null) reply.text = '';
              this.#finishWriting(reply);
            }
            return;
        }
      },
      done: () => {},
    };
  }

  #newReply(messageId: string, speakerId: string | undefined): SpokenReply {
    const reply: SpokenReply = {
      messageId,
      speakerId: speakerId ?? '',
      text: '',
      slices: [],
      sent: 0,
      held: '',
      heldParts: [],
      sentences: sentenceStream(),
      written: false,
      cut: false,
      over: false,
      quiet: new AbortController(),
    };
    this.#replies.set(messageId, reply);
    return reply;
  }

  /** The reply is written: its last sentence is spoken, then its end goes out. */
  #finishWriting(reply: SpokenReply): void {
    if (reply.written) return;
    reply.written = true;
    for (const raw of reply.sentences.end()) this.#say(reply, raw);
    // Never closed: the asterisk or bracket is text, as the chat shows it; said one by one.
    for (const raw of reply.heldParts) this.#speak(reply, raw, false);
    reply.held = '';
    reply.heldParts = [];
    this.#post(() => {
      if (reply.cut) return;
      reply.over = true;
      this.line.send({
        type: 'reply-end',
        messageId: reply.messageId,
        text: reply.text,
        cut: false,
      });
      if (this.#onLine === reply.messageId) this.#onLine = null;
    });
  }

  /**
   * Speaks the reply's next sentence, or holds it while it begins a stage direction or a link
   * that a later sentence closes: what is said is read from their markdown as a whole, as the
   * chat shows it (a stage direction over two sentences is not said; a link says its words).
   */
  #say(reply: SpokenReply, raw: string): void {
    reply.held += raw;
    reply.heldParts.push(raw);
    if (openInline(reply.held) && reply.held.length < HELD_MAX_CHARS) return;
    const { held, heldParts } = reply;
    reply.held = '';
    reply.heldParts = [];
    // Held too long: read as written, a sentence at a time (a barge-in keeps what was heard).
    if (openInline(held)) for (const part of heldParts) this.#speak(reply, part, false);
    else this.#speak(reply, held, heldParts.length > 1);
  }

  /**
   * Speaks one slice of the reply, if it says anything: each of its sentences' `sentence`, then
   * their audio. A slice of held sentences is cut again into pieces an engine speaks at once,
   * each sent as soon as it is made (the first is heard while the next is synthesized).
   */
  #speak(reply: SpokenReply, raw: string, several: boolean): void {
    const slice: { raw: string; index: number | null } = { raw, index: null };
    reply.slices.push(slice);
    // The slice's pieces, each synthesized after the one before (and after every slice before).
    const audio = this.#speaking.then(async () => {
      if (reply.cut || this.#ended) return [];
      const said = (await spokenText(raw)).replace(/[*_#`~]+/g, ' ').trim();
      const pieces = several ? speechPieces(said) : [said];
      let previous: Promise<unknown> = Promise.resolve();
      return pieces.map((text) => {
        const made = previous.then(async () => {
          if (!/[\p{L}\p{N}]/u.test(text) || reply.cut || this.#ended) return null;
          const clip = await this.deps.speech!.synthesize(
            { text, voice: await this.#voiceOf(reply.speakerId) },
            { signal: reply.quiet.signal },
          );
          const chunks: Uint8Array[] = [];
          for await (const chunk of clip.chunks) chunks.push(chunk);
          return { text, mimeType: clip.mimeType, bytes: Buffer.concat(chunks) };
        });
        // Awaited below, in order; one after a failure is never awaited.
        made.catch(() => {});
        previous = made;
        return made;
      });
    });
    // The next slice is synthesized once this one's last piece is made. A synthesis that fails
    // is told, and the reply goes on with its next sentence.
    this.#speaking = audio.then((made) => Promise.all(made)).catch(() => null);
    this.#post(async () => {
      try {
        for (const made of await audio) {
          const spoken = await made;
          if (reply.cut) return;
          if (!spoken) continue;
          slice.index ??= reply.sent;
          this.line.send({
            type: 'sentence',
            messageId: reply.messageId,
            index: reply.sent,
            text: spoken.text,
            mimeType: spoken.mimeType,
          });
          this.line.sendAudio(spoken.bytes);
          reply.sent += 1;
        }
      } catch (error) {
        if (!reply.cut && !this.#ended) this.line.fail(error);
      }
    });
  }

  /** The voice of a reply's speaker (the room's mate, or in a group the member speaking). */
  #voiceOf(speakerId: string): Promise<string> {
    const key = speakerId;
    let voice = this.#voices.get(key);
    if (!voice) {
      voice = (async () => {
        const mateId =
          key || (await findOwnRoom(this.deps.db, this.userId, this.opening.room_id)).mate_id;
        const [mate] = await speakingMates(this.deps.db, [mateId]);
        const voices = await voicesOf(this.deps.speech!, this.log);
        return mateVoice(voices, mate ?? { voice: null, gender: 'female' });
      })();
      voice.catch(() => this.#voices.delete(key));
      this.#voices.set(key, voice);
    }
    return voice;
  }

  /** Sends in order, after everything before it went out. */
  #post(send: () => void | Promise<void>): void {
    this.#outbox = this.#outbox.then(send).catch((error: unknown) => {
      this.log.warn(`voice call ${this.id}: could not send: ${(error as Error).message}`);
    });
  }

  #mark(messageIds: string[]): Promise<void> {
    const marking = markCallMessages(this.deps.db, this.id, messageIds);
    this.#track(marking);
    return marking.catch(() => {});
  }

  /**
   * A barge-in: the reply stops at once (its generation, its synthesis, what was not sent),
   * and is saved as the `heard` sentences, marked cut; so is any reply of the turn after it.
   */
  async #bargeIn(messageId: string, heard: number): Promise<void> {
    const reply = this.#replies.get(messageId);
    if (!reply || reply.cut) return;
    const turn = this.#turn;
    // The replies of its turn after it (none when it is of a turn before: a late barge-in).
    const at = turn?.replies.indexOf(reply) ?? -1;
    const after = at === -1 ? [] : turn!.replies.slice(at + 1);
    const cuts = [
      this.#cut(reply, heard, true),
      ...after.map((later) => this.#cut(later, 0, true)),
    ];
    if (turn?.controller && !turn.controller.signal.aborted && turn.replies.includes(reply))
      turn.controller.abort();
    await Promise.all(cuts);
  }

  /**
   * Saves `reply` as its first `heard` sentences, cut (none: the reply is taken back, its chat
   * given back, as a reply stopped before its first word is), once its writing stopped; tells
   * the person with `reply-end` when `tell`.
   */
  async #cut(reply: SpokenReply, heard: number, tell: boolean): Promise<void> {
    reply.cut = true;
    reply.quiet.abort();
    // The generation saves what it has as it stops: the cut is written after that.
    await this.#turn?.done;
    const kept = Math.max(0, Math.min(heard, reply.sent));
    let content = '';
    if (kept > 0) {
      // Up to the slice whose sentences the last heard is one of.
      const last = reply.slices.findLastIndex(
        (slice) => slice.index !== null && slice.index < kept,
      );
      content = reply.slices
        .slice(0, last + 1)
        .map((slice) => slice.raw)
        .join('')
        .trimEnd();
    }
    const { db } = this.deps;
    const cut = { roomId: this.opening.room_id, messageId: reply.messageId, callId: this.id };
    if (content) {
      // Its words changed, as an edit changes them: a clip of the longer ones goes, and one
      // paid for and not made gives its coins back.
      if (await saveCutReply(db, { ...cut, content }))
        await dropSpeech(this.deps, { ids: [reply.messageId] });
    } else if (await saveCutReply(db, { ...cut, content: '' }))
      await dropStoppedReply(db, this.userId, reply.messageId);
    if (tell && !this.#ended)
      this.#post(() =>
        this.line.send({ type: 'reply-end', messageId: reply.messageId, text: content, cut: true }),
      );
  }
}

/** The most characters of a reply held back, waiting for a stage direction or a link to close. */
const HELD_MAX_CHARS = 1_000;

/** A reply's failure, said in the sentence the send wrote for the person (5007). */
export class CallFailure extends Error {
  override readonly name = 'CallFailure';
}
