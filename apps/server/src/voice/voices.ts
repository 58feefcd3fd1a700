import type { Voice } from '@mates/api-client';
import type { SpeechEngine } from './speech-engine';

/** Whether `voiceId` is one of the engine's voices (never, with no engine). */
export async function isVoice(engine: SpeechEngine | null, voiceId: string): Promise<boolean> {
  if (!engine) return false;
  return (await engine.voices()).some((voice) => voice.voiceId === voiceId);
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
