import type { Voice } from '@mates/api-client';
import { invalid, refused } from '../domain/errors';
import { isSpeechError, type SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';
import { en } from '../i18n/en';

/** What people are told when the voice engine cannot list its voices at all (5007). */
export const VOICES_UNAVAILABLE = en.notices.voice.unavailable;

/**
 * The engine's voices; an engine that cannot list them (a local model still downloading, or one
 * that failed to load, a remote engine down) is a plain 5007 notice, never a server error.
 */
export async function voicesOf(engine: SpeechEngine, log: Logger | undefined): Promise<Voice[]> {
  try {
    return await engine.voices();
  } catch (error) {
    if (!isSpeechError(error)) throw error;
    log?.warn(`voices: ${error.message}`);
    throw refused(
      error.failure === 'busy' ? 'notices.voice.notReady' : 'notices.voice.unavailable',
    );
  }
}

/** Whether `voiceId` is one of the engine's voices (never, with no engine). */
export async function isVoice(
  engine: SpeechEngine | null,
  voiceId: string,
  log?: Logger,
): Promise<boolean> {
  if (!engine) return false;
  return (await voicesOf(engine, log)).some((voice) => voice.voiceId === voiceId);
}

/**
 * The voice a call asked for, checked to be one of the engine's (4000 when it is not), or
 * without one the voice `fallback` picks of the engine's.
 */
export async function chooseVoice(
  engine: SpeechEngine,
  log: Logger | undefined,
  wanted: string | undefined,
  fallback: (voices: Voice[]) => string,
): Promise<string> {
  const voices = await voicesOf(engine, log);
  if (wanted && !voices.some((one) => one.voiceId === wanted))
    throw invalid('notices.voice.unknownVoice');
  return wanted ?? fallback(voices);
}

/**
 * The voice a mate speaks in: its own when the engine still has it, else the first voice of its
 * gender in the catalog's order (the embedded engine: Sally for women, Rob for men), else the
 * first voice (Sally for a non-binary mate).
 */
export function mateVoice(voices: Voice[], mate: { voice: string | null; gender: string }): string {
  if (mate.voice && voices.some((voice) => voice.voiceId === mate.voice)) return mate.voice;
  const byGender = voices.find((voice) => voice.gender === mate.gender);
  const chosen = byGender ?? voices[0];
  if (!chosen) throw new Error('the speech engine has no voices');
  return chosen.voiceId;
}
