import { randomUUID } from 'node:crypto';
import type { AudioClip, SpeechLink } from '@mates/api-client';
import type { SpeechClipTable } from '../db/schema';
import { now } from '../db/dialect';
import { spendGoldCoins } from '../accounts/benefits';
import { refuseWhenSpent } from '../accounts/rate-limits';
import { invalid, missing, refused } from '../domain/errors';
import type { SpeechEngine } from './speech-engine';
import { spokenText } from './spoken-text';
import { chooseVoice, mateVoice } from './voices';
import { sha256 } from './speech-facts';
import { joinMaking } from './speech-making-service';
import { mimeOfSample } from './voice-sample-service';
import { readySpeech, type VoiceDeps } from './voice-deps';
import {
  findClip,
  findClipOf,
  insertClip,
  messageToSpeak,
  renewClip,
  type FreshClip,
} from './speech-clip-repository';

/** A message's clip and what claiming it took: `charged`, its gold coins (0 when it was kept). */
interface ClaimedClip {
  clip: SpeechClipTable;
  charged: number;
}

/**
 * The clip of a mate's message in one of `userId`'s rooms in `wanted` voice (its mate's by
 * default), charged when it is new (or failed, or of words the message no longer says).
 * Concurrent first calls charge once: one inserts, the others find it.
 */
async function claimClip(
  deps: VoiceDeps,
  engine: SpeechEngine,
  userId: string,
  input: { messageId: string; voice?: string },
): Promise<ClaimedClip> {
  const { messageId } = input;
  const message = await messageToSpeak(deps.db, userId, messageId);
  if (!message) throw missing('notices.notFound.message');
  if (message.role !== 'mate') throw invalid('notices.voice.onlyMateSpoken');
  // A reply still being written waits; a call's reply cut where the person barged in is done.
  if (message.status === 'partial' && !message.call_cut) throw refused('notices.voice.waitListen');
  const voice = await chooseVoice(engine, deps.log, input.voice, (all) => mateVoice(all, message));
  const text = await spokenText(message.content);
  if (!text) throw invalid('notices.voice.nothingToSay');
  const textHash = sha256(text);
  const existing = await findClipOf(deps.db, messageId, voice);
  if (existing && existing.state !== 'failed' && existing.text_hash === textHash)
    return { clip: existing, charged: 0 };
  // A new making after too many failed ones waits (each failure gave its coins back).
  await refuseWhenSpent(deps.limits.voiceFailures, userId);
  const fresh: FreshClip = {
    text_hash: textHash,
    file: null,
    mime_type: null,
    duration_ms: null,
    cost: deps.cost,
    user_id: userId,
    state: 'pending',
    making_until: null,
    created_at: now(),
  };
  const claimed = await chargeClip(deps, { messageId, voice, existing, fresh });
  const clip = await findClipOf(deps.db, messageId, voice);
  if (!clip) throw missing('notices.notFound.message');
  if (!claimed) return { clip, charged: 0 };
  if (existing?.file) await deps.store.remove(existing.file);
  return { clip, charged: deps.cost };
}

/**
 * Writes the clip `fresh` (renewing `existing`, or new) and charges its person, in one
 * transaction: `false` when another call did it meanwhile (nothing charged here).
 */
async function chargeClip(
  deps: VoiceDeps,
  claim: {
    messageId: string;
    voice: string;
    existing: SpeechClipTable | undefined;
    fresh: FreshClip;
  },
): Promise<boolean> {
  const { messageId, voice, existing, fresh } = claim;
  return deps.db.transaction().execute(async (trx) => {
    // A clip already there is renewed only if nobody renewed it meanwhile.
    const written = existing
      ? await renewClip(trx, existing, fresh)
      : await insertClip(trx, { id: randomUUID(), message_id: messageId, voice, ...fresh });
    if (!written) return false;
    const spent = await spendGoldCoins(trx, fresh.user_id, fresh.cost, {
      reason: { key: 'ledger.reasons.voice' },
      reference: { type: 'message', id: messageId },
    });
    if (spent === 'capped') throw refused('notices.balance.dailyCap');
    if (spent === 'short') throw refused('notices.voice.notEnoughCoins');
    return true;
  });
}

/**
 * `POST /speech/link`: a signed link to the clip of a mate's message, charged when the clip is
 * new ({@link claimClip}); it is made on first play.
 */
export async function linkClip(
  deps: VoiceDeps,
  userId: string,
  read: () => Promise<{ messageId: string; voice?: string }>,
): Promise<SpeechLink> {
  const engine = readySpeech(deps);
  const input = await read();
  const { clip, charged } = await claimClip(deps, engine, userId, input);
  const { url, expiresAt } = deps.links.sign(clip.id);
  return { url, expiresAt, voice: clip.voice, charged };
}

/**
 * `POST /voice/textToAudio` with a `messageId`: the message's clip, made whole first if it is
 * not yet (whoever else listens hears it as it comes).
 */
export async function messageAudio(
  deps: VoiceDeps,
  engine: SpeechEngine,
  userId: string,
  input: { messageId: string; voice?: string },
): Promise<AudioClip> {
  let { clip } = await claimClip(deps, engine, userId, input);
  if (!clip.file) clip = await madeWhole(deps, engine, clip);
  if (clip.state !== 'ready' || !clip.file || !clip.mime_type)
    throw refused('notices.voice.notMade');
  return {
    audioUrl: deps.links.sign(clip.id).url,
    mimeType: clip.mime_type,
    durationMs: clip.duration_ms ?? 0,
  };
}

/** The clip once its making ended, whoever made it (its state tells how it ended). */
async function madeWhole(
  deps: VoiceDeps,
  engine: SpeechEngine,
  clip: SpeechClipTable,
): Promise<SpeechClipTable> {
  try {
    const { making, first } = await joinMaking(deps, engine, clip);
    // Nobody hears this call's making as it comes: only the whole file is answered.
    if (first) await making.live?.cancel();
    await making.done;
  } catch {
    // Told by the caller from the clip's state.
  }
  return (await findClip(deps.db, clip.id)) ?? clip;
}

/** What `GET /voice/clip` plays, or why it plays nothing. */
export type ClipOpening =
  /** No such clip (or its link's query is not one). */
  | { kind: 'notFound' }
  /** The link's signature is wrong or expired. */
  | { kind: 'forbidden' }
  /** A clip to make, and no speech engine. */
  | { kind: 'notSetUp' }
  /** Its making was refused or failed before it began (its coins were given back). */
  | { kind: 'notStarted'; error: unknown }
  /** Its making failed (its coins were given back). */
  | { kind: 'notMade' }
  /** Being made for this listener: the audio as it comes. */
  | { kind: 'live'; mimeType: string; stream: ReadableStream<Uint8Array> }
  /** A stored file. */
  | { kind: 'stored'; file: string; mimeType: string };

/**
 * `GET /voice/clip`: what a signed link plays. A message's clip not made yet is made now, heard
 * as it comes by the first listener; others wait for the file.
 */
export async function openClip(
  deps: VoiceDeps,
  link: { clip: string; expires: string; signature: string },
): Promise<ClipOpening> {
  const { clip: id, expires, signature } = link;
  if (!deps.links.verify(id, expires, signature)) return { kind: 'forbidden' };
  if (id.startsWith('sample-')) return { kind: 'stored', file: id, mimeType: mimeOfSample(id) };
  let clip = await findClip(deps.db, id);
  if (!clip) return { kind: 'notFound' };
  if (clip.state === 'pending' && !clip.file) {
    const engine = deps.speech;
    if (!engine) return { kind: 'notSetUp' };
    let joined;
    try {
      joined = await joinMaking(deps, engine, clip);
    } catch (error) {
      return { kind: 'notStarted', error };
    }
    const { making, first } = joined;
    if (first && making.live)
      return { kind: 'live', mimeType: making.mimeType, stream: making.live };
    await making.done;
    clip = await findClip(deps.db, id);
    if (!clip) return { kind: 'notFound' };
  }
  if (clip.state === 'failed') return { kind: 'notMade' };
  if (!clip.file || !clip.mime_type) return { kind: 'notFound' };
  return { kind: 'stored', file: clip.file, mimeType: clip.mime_type };
}
