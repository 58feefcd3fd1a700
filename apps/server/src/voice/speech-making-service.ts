import type { SpeechClipTable } from '../db/schema';
import { refundGoldCoins } from '../accounts/benefits';
import { startTry } from '../accounts/rate-limits';
import { isStorageUnavailable } from '../media/media-store';
import { isOutOfSpace } from '../domain/out-of-space';
import {
  isSpeechError,
  type SpeechAudio,
  type SpeechEngine,
  type SpeechFailure,
} from './speech-engine';
import { spokenText } from './spoken-text';
import { durationMs, sha256 } from './speech-facts';
import type { Making, VoiceDeps } from './voice-deps';
import {
  claimClipMaking,
  clipExists,
  findClip,
  markClipFailed,
  messageContent,
  recordClipMade,
  releaseClipMaking,
} from './speech-clip-repository';

/**
 * How long one synthesis may take: the longest message the server accepts (8,000 characters),
 * full of numbers, is over twenty minutes of speech, made piece by piece on a busy machine.
 */
export const SYNTHESIS_TIMEOUT_MS = 600_000;

/**
 * How long a server's claim to make a clip lasts (`speech_clips.making_until`): its synthesis,
 * then storing the audio. A claim past this is a dead server's; another takes the clip over.
 */
const MAKING_CLAIM_MS = SYNTHESIS_TIMEOUT_MS + 60_000;

/** How often a server waiting for a clip another makes looks whether it is there. */
const MADE_ELSEWHERE_POLL_MS = 250;

type Deps = Pick<VoiceDeps, 'db' | 'log' | 'limits' | 'store' | 'making'>;

/**
 * Counts a clip or sample about to be made against its person (5007 when too many failed or
 * are being made: see `RateLimits.voiceFailures`). The answer takes the count back, to be
 * called when it was made or failed through no fault of the person ({@link blameless}).
 */
export async function countTry(
  deps: Pick<VoiceDeps, 'log' | 'limits'>,
  userId: string,
): Promise<() => Promise<void>> {
  const giveBack = await startTry(deps.limits.voiceFailures, userId);
  return () =>
    giveBack().catch((error: Error) =>
      deps.log.warn(`voice failures of ${userId}: a try not given back: ${error.message}`),
    );
}

/** What a speech engine's failure is, as people are told it (`failed` for anything else). */
export const failureOf = (error: unknown): SpeechFailure =>
  isSpeechError(error) ? error.failure : 'failed';

/** The sentence that tells people why making speech failed. */
export const failureKey = (error: unknown) => `notices.voice.${failureOf(error)}` as const;

/**
 * Whether a failure is the server's or its engine's, not the text's or the person's: the
 * store or the disk, an engine that is not reachable, set up or free, a synthesis stopped or
 * too long. Not counted as a failed try: a script gets nothing free from it.
 */
export const blameless = (error: unknown): boolean =>
  isStorageUnavailable(error) ||
  isOutOfSpace(error) ||
  (isSpeechError(error) &&
    ['cancelled', 'timeout', 'unreachable', 'unauthorized', 'busy'].includes(error.failure));

/**
 * Marks a clip failed and gives its coins back, once (only the call that marked it). A clip
 * dropped while this server held its claim (`claimedUntil`; its message edited or deleted)
 * was not refunded by the drop: nothing of it was heard, so the coins come back here.
 */
async function failClip(deps: Deps, clip: SpeechClipTable, error: unknown, claimedUntil: number) {
  deps.log.warn(`voice clip ${clip.id}: ${(error as Error).message}`);
  await deps.db.transaction().execute(async (trx) => {
    const marked = await markClipFailed(trx, clip.id);
    const dropped = !marked && Date.now() < claimedUntil && !(await clipExists(trx, clip.id));
    if (marked || dropped)
      await refundGoldCoins(trx, clip.user_id, clip.cost, {
        reason: { key: 'ledger.reasons.refundVoiceFailed' },
        reference: { type: 'message', id: clip.message_id },
      });
  });
}

/** A claimed clip's making: until when it is claimed, and how a failure is settled. */
interface Claimed {
  clip: SpeechClipTable;
  claimedUntil: number;
  /** Takes back the person's count of a try (it was made, or failed by no fault of theirs). */
  giveBack: () => Promise<void>;
}

/** Settles a failure of the making: its count kept unless blameless, the clip failed. */
async function failMaking(deps: Deps, claimed: Claimed, error: unknown): Promise<void> {
  if (blameless(error)) await claimed.giveBack();
  await failClip(deps, claimed.clip, error, claimed.claimedUntil);
}

/**
 * Starts making a pending clip this server claimed until `claimedUntil`: speaks its message,
 * stores the file, records it.
 */
async function startMaking(
  deps: Deps,
  engine: SpeechEngine,
  clip: SpeechClipTable,
  claimedUntil: number,
): Promise<Making> {
  let giveBack: () => Promise<void>;
  try {
    giveBack = await countTry(deps, clip.user_id);
  } catch (error) {
    await failClip(deps, clip, error, claimedUntil);
    throw error;
  }
  // A failure's count is kept, unless it is blameless; a clip made gives it back.
  const claimed: Claimed = { clip, claimedUntil, giveBack };
  const content = await messageContent(deps.db, clip.message_id);
  const text = content !== undefined ? await spokenText(content) : '';
  if (content === undefined || sha256(text) !== clip.text_hash) {
    const changed = new Error('the message changed');
    await failClip(deps, clip, changed, claimedUntil);
    throw changed;
  }
  let audio: SpeechAudio;
  try {
    audio = await engine.synthesize(
      { text, voice: clip.voice },
      { signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS) },
    );
  } catch (error) {
    await failMaking(deps, claimed, error);
    throw error;
  }
  const feed = liveFeed();
  return { mimeType: audio.mimeType, live: feed.stream, done: record(deps, claimed, audio, feed) };
}

/** The stream of the listener who started a making, fed as the audio comes. */
interface LiveFeed {
  stream: ReadableStream<Uint8Array>;
  /** Passes something on to the listener, while one listens. */
  tell: (send: (to: ReadableStreamDefaultController<Uint8Array>) => void) => void;
  listening: () => boolean;
}

function liveFeed(): LiveFeed {
  let listener: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => void (listener = controller),
    // The listener left: the clip is still made and kept (it was paid for).
    cancel: () => void (listener = null),
  });
  const tell: LiveFeed['tell'] = (send) => {
    try {
      if (listener) send(listener);
    } catch {
      listener = null;
    }
  };
  return { stream, tell, listening: () => listener !== null };
}

/**
 * Stores the audio as it comes (passing it on to the listener) and records the clip made:
 * `true` once it is, `false` when it failed or its message changed with nobody listening.
 */
async function record(
  deps: Deps,
  claimed: Claimed,
  audio: SpeechAudio,
  feed: LiveFeed,
): Promise<boolean> {
  const { clip } = claimed;
  const writer = deps.store.create(audio.mimeType);
  const parts: Uint8Array[] = [];
  try {
    for await (const chunk of audio.chunks) {
      await writer.write(chunk);
      parts.push(chunk);
      feed.tell((to) => to.enqueue(chunk));
    }
    await writer.finish();
  } catch (error) {
    await writer.abort();
    await failMaking(deps, claimed, error);
    feed.tell((to) => to.error(error));
    return false;
  }
  const kept = await recordClipMade(deps.db, clip.id, {
    file: writer.key,
    mimeType: audio.mimeType,
    durationMs: await durationMs(Buffer.concat(parts), audio.mimeType),
  });
  // The message changed or went while it was spoken: keep nothing. Whoever listened heard
  // it (no refund); with nobody listening, nothing was heard.
  if (!kept) {
    await deps.store.remove(writer.key);
    if (!feed.listening()) {
      const changed = new Error('the message changed while it was spoken');
      await failClip(deps, clip, changed, claimed.claimedUntil);
      return false;
    }
  }
  await claimed.giveBack();
  feed.tell((to) => to.close());
  return true;
}

/**
 * Claims the making of a pending clip for this server until {@link MAKING_CLAIM_MS} from now,
 * unless another server's claim still lasts: until when it is this server's to make, or
 * `null`.
 */
async function claimMaking(deps: Deps, clipId: string): Promise<number | null> {
  const at = Date.now();
  const until = at + MAKING_CLAIM_MS;
  return (await claimClipMaking(deps.db, clipId, at, until)) ? until : null;
}

/** Lets go of a claim whose making never began (the message changed, the store failed). */
const releaseMaking = (deps: Deps, clipId: string): Promise<void> =>
  releaseClipMaking(deps.db, clipId).catch(() => {});

/**
 * Waits while another server makes the clip: `true` once it is ready, `false` once it failed
 * or went. Should that server's claim run out (it died), this one takes the making over.
 */
async function madeElsewhere(deps: Deps, engine: SpeechEngine, clipId: string): Promise<boolean> {
  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, MADE_ELSEWHERE_POLL_MS));
      const row = await findClip(deps.db, clipId);
      if (!row || row.state !== 'pending' || row.file) return row?.state === 'ready';
      const until = await claimMaking(deps, clipId);
      if (until !== null) return await (await startMaking(deps, engine, row, until)).done;
    }
  } catch (error) {
    // Told as a clip not made (its failure, if it was the engine's, refunded it already).
    deps.log.warn(`voice clip ${clipId}: ${(error as Error).message}`);
    await releaseMaking(deps, clipId);
    return false;
  }
}

/**
 * The clip's making: this process's, started if nobody's has (and no other server claims it),
 * or a wait for the server that does. `first` says whether this call started it here: its
 * caller is the listener that hears it live.
 */
export async function joinMaking(
  deps: Deps,
  engine: SpeechEngine,
  clip: SpeechClipTable,
): Promise<{ making: Making; first: boolean }> {
  let run = deps.making.get(clip.id);
  const first = !run;
  if (!run) {
    run = claimMaking(deps, clip.id).then(async (until): Promise<Making> => {
      if (until === null)
        return { mimeType: '', live: null, done: madeElsewhere(deps, engine, clip.id) };
      try {
        return await startMaking(deps, engine, clip, until);
      } catch (error) {
        await releaseMaking(deps, clip.id);
        throw error;
      }
    });
    deps.making.set(clip.id, run);
    const forget = () => void deps.making.delete(clip.id);
    // Forgotten however it ends; its callers see the failure, this chain handles it.
    run.then((started) => started.done.finally(forget), forget).catch(() => {});
  }
  return { making: await run, first };
}
