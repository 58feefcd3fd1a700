import { createHash, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AudioClip, SpeechLink, VoiceCatalog } from '@mates/api-client';
import { VOICE_SAMPLE_MAX } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { badInput, EnvelopeError, notFound, notice } from '../http/envelope';
import { consume, refuseWhenSpent, startTry } from '../accounts/rate-limits';
import { isStorageUnavailable } from '../media/media-store';
import { isOutOfSpace } from '../http/out-of-space';
import { DAILY_CAP_REACHED, refundGoldCoins, spendGoldCoins } from '../accounts/benefits';
import { now } from '../db/dialect';
import type { SpeechClipTable } from '../db/schema';
import { isSpeechError, type SpeechEngine, type SpeechFailure } from './speech-engine';
import { spokenText } from './spoken-text';
import { mateVoice, voicesOf } from './voices';
import { speechOf } from './speech-clips';
import { en } from '../i18n/en';

/** What every voice call answers (5007) when `SPEECH_PROVIDER` is `none`. */
export const VOICE_NOT_SET_UP = en.notices.voice.notSetUp;

/** What hearing a message costs to whoever has too few gold coins (5007). */
export const NOT_ENOUGH_COINS_FOR_VOICE = en.notices.voice.notEnoughCoins;

/** A message with no words left once its actions (`*smiles*`) and markdown are set aside. */
export const NOTHING_TO_SAY = 'messageId: this message has nothing to say aloud.';

/** Why a voice clip failed, as people are told it (the engine's detail goes to the log). */
export const VOICE_FAILURES: Record<SpeechFailure, string> = {
  unreachable: en.notices.voice.unreachable,
  unauthorized: en.notices.voice.unauthorized,
  busy: en.notices.voice.busy,
  rejected: en.notices.voice.rejected,
  failed: en.notices.voice.failed,
  timeout: en.notices.voice.timeout,
  cut: en.notices.voice.cut,
  malformed: en.notices.voice.malformed,
  cancelled: en.notices.voice.cancelled,
};

/**
 * How long one synthesis may take: the longest message the server accepts (8,000 characters),
 * full of numbers, is over twenty minutes of speech, made piece by piece on a busy machine.
 */
const SYNTHESIS_TIMEOUT_MS = 600_000;

/**
 * How long a server's claim to make a clip lasts (`speech_clips.making_until`): its synthesis,
 * then storing the audio. A claim past this is a dead server's; another takes the clip over.
 */
const MAKING_CLAIM_MS = SYNTHESIS_TIMEOUT_MS + 60_000;

/** How often a server waiting for a clip another makes looks whether it is there. */
const MADE_ELSEWHERE_POLL_MS = 250;

const voiceId = z.string().min(1).max(100);
const linkSchema = z.object({ messageId: z.string().min(1).max(100), voice: voiceId.optional() });
const textToAudioSchema = z
  .object({
    text: z.string().trim().min(1, 'is required').max(VOICE_SAMPLE_MAX).optional(),
    messageId: z.string().min(1).max(100).optional(),
    voice: voiceId.optional(),
  })
  .refine((input) => (input.text === undefined) !== (input.messageId === undefined), {
    message: 'give either text or messageId',
  });
const clipQuery = z.object({
  clip: z.string().min(1).max(100),
  expires: z.string().min(1).max(20),
  signature: z.string().min(1).max(100),
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The length of audio in milliseconds (0 when its format does not tell). */
async function durationMs(bytes: Uint8Array, mimeType: string): Promise<number> {
  try {
    // music-metadata is loaded at the first recording: a server that hears none never needs it.
    const { parseBuffer } = await import('music-metadata');
    const { format } = await parseBuffer(bytes, { mimeType, size: bytes.length });
    return format.duration ? Math.round(format.duration * 1000) : 0;
  } catch {
    return 0;
  }
}

/** Audio being made for the first listener, kept while others wait for the file. */
interface Making {
  mimeType: string;
  /**
   * The bytes as they come, for the listener that started it; `null` when another server makes
   * the clip (it is served from the store once `done`).
   */
  live: ReadableStream<Uint8Array> | null;
  /** Settles once the file is recorded (`true`) or the clip failed (`false`). */
  done: Promise<boolean>;
}

/**
 * Voice (#16): `GET /voice/voices`, `POST /speech/link`, `POST /voice/textToAudio` and
 * `GET /voice/clip`, which serves a clip to whoever holds a signed link (an `<audio>` element
 * sends no token), with `Range` support. A message's clip is charged when first linked, made on
 * first play (streamed while it is stored), and kept until the message's words change.
 * With `SPEECH_PROVIDER=none` every call answers 5007 {@link VOICE_NOT_SET_UP}.
 */
export function voiceRoutes(deps: Deps): { voice: Hono<ApiEnv>; speech: Hono<ApiEnv> } {
  const { db, config } = deps;
  const voice = new Hono<ApiEnv>();
  const speech = new Hono<ApiEnv>();
  const { store, links } = speechOf(config);
  const cost = config.speech?.cost ?? 0;
  /** Clips being made in this process, by id: a second listener waits instead of synthesizing. */
  const making = new Map<string, Promise<Making>>();

  const engineOrNotice = (): SpeechEngine => {
    if (!deps.speech) throw notice(VOICE_NOT_SET_UP);
    return deps.speech;
  };

  /**
   * Counts a clip or sample about to be made against its person (5007 when too many failed or
   * are being made: see `RateLimits.voiceFailures`). The answer takes the count back, to be
   * called when it was made or failed through no fault of the person ({@link blameless}).
   */
  const startMakingFor = async (userId: string) => {
    const giveBack = await startTry(deps.limits.voiceFailures, userId);
    return () =>
      giveBack().catch((error: Error) =>
        deps.log.warn(`voice failures of ${userId}: a try not given back: ${error.message}`),
      );
  };

  const failureOf = (error: unknown): SpeechFailure =>
    isSpeechError(error) ? error.failure : 'failed';

  /**
   * Whether a failure is the server's or its engine's, not the text's or the person's: the
   * store or the disk, an engine that is not reachable, set up or free, a synthesis stopped or
   * too long. Not counted as a failed try: a script gets nothing free from it.
   */
  const blameless = (error: unknown): boolean =>
    isStorageUnavailable(error) ||
    isOutOfSpace(error) ||
    (isSpeechError(error) &&
      ['cancelled', 'timeout', 'unreachable', 'unauthorized', 'busy'].includes(error.failure));

  /**
   * Marks a clip failed and gives its coins back, once (only the call that marked it). A clip
   * dropped while this server held its claim (`claimedUntil`; its message edited or deleted)
   * was not refunded by the drop: nothing of it was heard, so the coins come back here.
   */
  const failClip = async (clip: SpeechClipTable, error: unknown, claimedUntil: number) => {
    deps.log.warn(`voice clip ${clip.id}: ${(error as Error).message}`);
    await db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('speech_clips')
        .set({ state: 'failed' })
        .where('id', '=', clip.id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      const dropped =
        Number(marked.numUpdatedRows) === 0 &&
        Date.now() < claimedUntil &&
        !(await trx
          .selectFrom('speech_clips')
          .select('id')
          .where('id', '=', clip.id)
          .executeTakeFirst());
      if (Number(marked.numUpdatedRows) > 0 || dropped)
        await refundGoldCoins(trx, clip.user_id, clip.cost, {
          reason: 'refund: voice failed',
          reference: { type: 'message', id: clip.message_id },
        });
    });
  };

  /**
   * Starts making a pending clip this server claimed until `claimedUntil`: speaks its message,
   * stores the file, records it.
   */
  const startMaking = async (
    engine: SpeechEngine,
    clip: SpeechClipTable,
    claimedUntil: number,
  ): Promise<Making> => {
    let giveBack: () => Promise<void>;
    try {
      giveBack = await startMakingFor(clip.user_id);
    } catch (error) {
      await failClip(clip, error, claimedUntil);
      throw error;
    }
    // A failure's count is kept, unless it is blameless; a clip made gives it back.
    const counted = (error: unknown) => (blameless(error) ? giveBack() : Promise.resolve());
    const message = await db
      .selectFrom('messages')
      .select('content')
      .where('id', '=', clip.message_id)
      .executeTakeFirst();
    const text = message ? await spokenText(message.content) : '';
    if (!message || sha256(text) !== clip.text_hash) {
      const changed = new Error('the message changed');
      await failClip(clip, changed, claimedUntil);
      throw changed;
    }
    let audio;
    try {
      audio = await engine.synthesize(
        { text, voice: clip.voice },
        { signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS) },
      );
    } catch (error) {
      await counted(error);
      await failClip(clip, error, claimedUntil);
      throw error;
    }
    const writer = store.create(audio.mimeType);
    let listener: ReadableStreamDefaultController<Uint8Array> | null = null;
    const live = new ReadableStream<Uint8Array>({
      start: (controller) => void (listener = controller),
      // The listener left: the clip is still made and kept (it was paid for).
      cancel: () => void (listener = null),
    });
    const tell = (send: (to: ReadableStreamDefaultController<Uint8Array>) => void) => {
      try {
        if (listener) send(listener);
      } catch {
        listener = null;
      }
    };
    const recorded = (async () => {
      const parts: Uint8Array[] = [];
      try {
        for await (const chunk of audio.chunks) {
          await writer.write(chunk);
          parts.push(chunk);
          tell((to) => to.enqueue(chunk));
        }
        await writer.finish();
      } catch (error) {
        await writer.abort();
        await counted(error);
        await failClip(clip, error, claimedUntil);
        tell((to) => to.error(error));
        return false;
      }
      const bytes = Buffer.concat(parts);
      const kept = await db
        .updateTable('speech_clips')
        .set({
          file: writer.key,
          mime_type: audio.mimeType,
          duration_ms: await durationMs(bytes, audio.mimeType),
          state: 'ready',
        })
        .where('id', '=', clip.id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      // The message changed or went while it was spoken: keep nothing. Whoever listened heard
      // it (no refund); with nobody listening, nothing was heard.
      if (Number(kept.numUpdatedRows) === 0) {
        await store.remove(writer.key);
        if (!listener) {
          await failClip(clip, new Error('the message changed while it was spoken'), claimedUntil);
          return false;
        }
      }
      await giveBack();
      tell((to) => to.close());
      return true;
    })();
    return { mimeType: audio.mimeType, live, done: recorded };
  };

  /**
   * Claims the making of a pending clip for this server until {@link MAKING_CLAIM_MS} from now,
   * unless another server's claim still lasts: until when it is this server's to make, or
   * `null`.
   */
  const claimMaking = async (clipId: string): Promise<number | null> => {
    const at = Date.now();
    const until = at + MAKING_CLAIM_MS;
    const claimed = await db
      .updateTable('speech_clips')
      .set({ making_until: new Date(until).toISOString() })
      .where('id', '=', clipId)
      .where('state', '=', 'pending')
      .where('file', 'is', null)
      .where((eb) =>
        eb.or([
          eb('making_until', 'is', null),
          eb('making_until', '<', new Date(at).toISOString()),
        ]),
      )
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) > 0 ? until : null;
  };

  /** Lets go of a claim whose making never began (the message changed, the store failed). */
  const releaseMaking = (clipId: string) =>
    db
      .updateTable('speech_clips')
      .set({ making_until: null })
      .where('id', '=', clipId)
      .where('state', '=', 'pending')
      .execute()
      .then(
        () => {},
        () => {},
      );

  /**
   * Waits while another server makes the clip: `true` once it is ready, `false` once it failed
   * or went. Should that server's claim run out (it died), this one takes the making over.
   */
  const madeElsewhere = async (engine: SpeechEngine, clipId: string): Promise<boolean> => {
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, MADE_ELSEWHERE_POLL_MS));
        const row = await db
          .selectFrom('speech_clips')
          .selectAll()
          .where('id', '=', clipId)
          .executeTakeFirst();
        if (!row || row.state !== 'pending' || row.file) return row?.state === 'ready';
        const until = await claimMaking(clipId);
        if (until !== null) return await (await startMaking(engine, row, until)).done;
      }
    } catch (error) {
      // Told as a clip not made (its failure, if it was the engine's, refunded it already).
      deps.log.warn(`voice clip ${clipId}: ${(error as Error).message}`);
      await releaseMaking(clipId);
      return false;
    }
  };

  /**
   * The clip's making: this process's, started if nobody's has (and no other server claims it),
   * or a wait for the server that does.
   */
  const makingOf = (engine: SpeechEngine, clip: SpeechClipTable): Promise<Making> => {
    let run = making.get(clip.id);
    if (!run) {
      run = claimMaking(clip.id).then(async (until): Promise<Making> => {
        if (until === null)
          return { mimeType: '', live: null, done: madeElsewhere(engine, clip.id) };
        try {
          return await startMaking(engine, clip, until);
        } catch (error) {
          await releaseMaking(clip.id);
          throw error;
        }
      });
      making.set(clip.id, run);
      const forget = () => void making.delete(clip.id);
      // Forgotten however it ends; its callers see the failure, this chain handles it.
      run.then((started) => started.done.finally(forget), forget).catch(() => {});
    }
    return run;
  };

  // Not through `contract`: it answers bytes, not an envelope, to an <audio> that sends no token.
  voice.get('/clip', async (c) => {
    const parsed = clipQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    const { clip: id, expires, signature } = parsed.data;
    if (!links.verify(id, expires, signature)) return c.text('Forbidden', 403);
    if (id.startsWith('sample-')) return store.serve(id, mimeOfKey(id), c.req.raw);
    const read = () =>
      db.selectFrom('speech_clips').selectAll().where('id', '=', id).executeTakeFirst();
    let clip = await read();
    if (!clip) return c.text('Not found', 404);
    if (clip.state === 'pending' && !clip.file) {
      const engine = deps.speech;
      if (!engine) return c.text(VOICE_NOT_SET_UP, 503);
      const first = !making.has(clip.id);
      let run: Making;
      try {
        run = await makingOf(engine, clip);
      } catch (error) {
        // Refused before it was made: too many of the person's clips failed or are being made.
        const why =
          error instanceof EnvelopeError ? error.message : VOICE_FAILURES[failureOf(error)];
        return c.text(`${why} Your gold coins were given back.`, 502);
      }
      if (first && run.live)
        return new Response(run.live, {
          status: 200,
          headers: { 'content-type': run.mimeType, 'cache-control': 'private, no-store' },
        });
      await run.done;
      clip = await read();
      if (!clip) return c.text('Not found', 404);
    }
    if (clip.state === 'failed') return c.text(en.notices.voice.notMade, 502);
    if (!clip.file || !clip.mime_type) return c.text('Not found', 404);
    return store.serve(clip.file, clip.mime_type, c.req.raw);
  });

  const api = contract(voice, '/voice');

  api.get('/voice/voices', async (c): Promise<VoiceCatalog> => {
    if (!deps.speech && !deps.transcription) throw notice(VOICE_NOT_SET_UP);
    return {
      voices: deps.speech ? await voicesOf(deps.speech, c.get('log')) : [],
      costPerMessage: deps.speech ? cost : 0,
      transcription: deps.transcription !== null,
    };
  });

  /**
   * The clip of a mate's message in one of `userId`'s rooms in `voice` (its mate's by default),
   * charged when it is new (or failed, or of words the message no longer says): `charged` is
   * what this call took. Concurrent first calls charge once: one inserts, the others find it.
   */
  const claimClip = async (
    engine: SpeechEngine,
    userId: string,
    messageId: string,
    wanted: string | undefined,
  ): Promise<{ clip: SpeechClipTable; charged: number }> => {
    const message = await db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .innerJoin('mates', 'mates.id', 'rooms.mate_id')
      .select([
        'messages.content',
        'messages.role',
        'messages.status',
        'mates.voice',
        'mates.gender',
      ])
      .where('messages.id', '=', messageId)
      .where('rooms.user_id', '=', userId)
      .executeTakeFirst();
    if (!message) throw notFound('Message');
    if (message.role !== 'mate') throw badInput('messageId: only a mate’s message is spoken.');
    if (message.status === 'partial') throw notice(en.notices.voice.waitListen);
    const voices = await voicesOf(engine, deps.log);
    if (wanted && !voices.some((one) => one.voiceId === wanted))
      throw badInput('voice: not one of the voices of /voice/voices');
    const voiceId = wanted ?? mateVoice(voices, message);
    const text = await spokenText(message.content);
    if (!text) throw badInput(NOTHING_TO_SAY);
    const textHash = sha256(text);
    const find = () =>
      db
        .selectFrom('speech_clips')
        .selectAll()
        .where('message_id', '=', messageId)
        .where('voice', '=', voiceId)
        .executeTakeFirst();
    const existing = await find();
    if (existing && existing.state !== 'failed' && existing.text_hash === textHash)
      return { clip: existing, charged: 0 };
    // A new making after too many failed ones waits (each failure gave its coins back).
    await refuseWhenSpent(deps.limits.voiceFailures, userId);
    const fresh = {
      text_hash: textHash,
      file: null,
      mime_type: null,
      duration_ms: null,
      cost,
      user_id: userId,
      state: 'pending',
      making_until: null,
      created_at: now(),
    };
    const claimed = await db.transaction().execute(async (trx) => {
      if (existing) {
        // Only if nobody renewed it meanwhile.
        const renewed = await trx
          .updateTable('speech_clips')
          .set(fresh)
          .where('id', '=', existing.id)
          .where('state', '=', existing.state)
          .where('text_hash', '=', existing.text_hash)
          .executeTakeFirst();
        if (Number(renewed.numUpdatedRows) === 0) return false;
      } else {
        const inserted = await trx
          .insertInto('speech_clips')
          .values({ id: randomUUID(), message_id: messageId, voice: voiceId, ...fresh })
          .onConflict((conflict) => conflict.columns(['message_id', 'voice']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) return false;
      }
      const spent = await spendGoldCoins(trx, userId, cost, {
        reason: 'voice',
        reference: { type: 'message', id: messageId },
      });
      if (spent === 'capped') throw notice(DAILY_CAP_REACHED);
      if (spent === 'short') throw notice(NOT_ENOUGH_COINS_FOR_VOICE);
      return true;
    });
    const clip = await find();
    if (!clip) throw notFound('Message');
    if (!claimed) return { clip, charged: 0 };
    if (existing?.file) await store.remove(existing.file);
    return { clip, charged: cost };
  };

  contract(speech, '/speech').post(
    '/speech/link',
    linkSchema,
    async (c, read): Promise<SpeechLink> => {
      const user = requireUser(c);
      const engine = engineOrNotice();
      const input = await read();
      const { clip, charged } = await claimClip(engine, user.id, input.messageId, input.voice);
      const { url, expiresAt } = links.sign(clip.id);
      return { url, expiresAt, voice: clip.voice, charged };
    },
  );

  api.post('/voice/textToAudio', textToAudioSchema, async (c, read): Promise<AudioClip> => {
    const user = requireUser(c);
    const engine = engineOrNotice();
    const input = await read();
    if (input.messageId !== undefined) {
      let { clip } = await claimClip(engine, user.id, input.messageId, input.voice);
      if (!clip.file) {
        try {
          const first = !making.has(clip.id);
          const run = await makingOf(engine, clip);
          // Nobody hears this call's making as it comes: only the whole file is answered.
          if (first) await run.live?.cancel();
          await run.done;
        } catch {
          // Told below from the clip's state.
        }
        clip =
          (await db
            .selectFrom('speech_clips')
            .selectAll()
            .where('id', '=', clip.id)
            .executeTakeFirst()) ?? clip;
      }
      if (clip.state !== 'ready' || !clip.file || !clip.mime_type)
        throw notice(en.notices.voice.notMade);
      return {
        audioUrl: links.sign(clip.id).url,
        mimeType: clip.mime_type,
        durationMs: clip.duration_ms ?? 0,
      };
    }
    const voices = await voicesOf(engine, c.get('log'));
    if (input.voice && !voices.some((one) => one.voiceId === input.voice))
      throw badInput('voice: not one of the voices of /voice/voices');
    const voiceId = input.voice ?? voices[0]!.voiceId;
    const text = await spokenText(input.text!);
    if (!text) throw badInput('text: there is nothing to say aloud.');
    await consume(deps.limits.voiceSample, user.id);
    // Samples are kept by voice and words: the same preview twice is made once.
    const name = `sample-${sha256(`${voiceId}\n${text}`).slice(0, 40)}`;
    for (const [mimeType, ext] of Object.entries(SAMPLE_TYPES)) {
      const key = `${name}.${ext}`;
      const bytes = await store.get(key);
      if (bytes)
        return {
          audioUrl: links.sign(key).url,
          mimeType,
          durationMs: await durationMs(bytes, mimeType),
        };
    }
    const giveBack = await startMakingFor(user.id);
    try {
      await consume(deps.limits.voiceSampleDaily, user.id);
    } catch (error) {
      await giveBack();
      throw error;
    }
    let audio;
    try {
      audio = await engine.synthesize(
        { text, voice: voiceId },
        { signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS) },
      );
    } catch (error) {
      c.get('log').warn(`voice sample: ${(error as Error).message}`);
      if (blameless(error)) await giveBack();
      throw notice(VOICE_FAILURES[failureOf(error)]);
    }
    const writer = store.create(audio.mimeType, name);
    const parts: Uint8Array[] = [];
    try {
      for await (const chunk of audio.chunks) {
        parts.push(chunk);
        await writer.write(chunk);
      }
    } catch (error) {
      await writer.abort();
      c.get('log').warn(`voice sample: ${(error as Error).message}`);
      if (blameless(error)) await giveBack();
      throw notice(VOICE_FAILURES[failureOf(error)]);
    }
    // Not the engine's fault when it fails: the media store's error says what happened.
    await writer.finish().finally(giveBack);
    return {
      audioUrl: links.sign(writer.key).url,
      mimeType: audio.mimeType,
      durationMs: await durationMs(Buffer.concat(parts), audio.mimeType),
    };
  });

  return { voice, speech };
}

/** The media types samples are kept in, and their file endings. */
const SAMPLE_TYPES: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
};

const mimeOfKey = (key: string): string =>
  Object.entries(SAMPLE_TYPES).find(([, ext]) => key.endsWith(`.${ext}`))?.[0] ??
  'application/octet-stream';
