import type { Voice } from '@mates/api-client';
import { notice } from '../http/envelope';
import { isSpeechError, type SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';
import { en } from '../i18n/en';

/** What people are told while the voice engine cannot list its voices (5007). */
export const VOICES_NOT_READY = en.notices.voice.notReady;
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
    throw notice(error.failure === 'busy' ? VOICES_NOT_READY : VOICES_UNAVAILABLE);
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
