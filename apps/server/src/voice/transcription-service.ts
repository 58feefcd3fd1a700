import type { Transcription } from '@mates/api-client';
import { consume } from '../accounts/rate-limits';
import { refused } from '../domain/errors';
import { en } from '../i18n/en';
import { isSpeechError } from './speech-engine';
import type { Caller } from './voice-service';
import type { VoiceDeps } from './voice-deps';

/** What `POST /voice/transcribe` answers (5007) when `TRANSCRIBE_PROVIDER` is not set. */
export const TRANSCRIPTION_NOT_SET_UP = en.notices.transcription.notSetUp;

/** A recording to turn into text, as the route read it. */
export interface Recording {
  audio: Uint8Array;
  /** What the browser's recorder made, e.g. `audio/webm;codecs=opus`. */
  mimeType: string;
  /** The language spoken, as a tag (`en`, `en-US`), when the caller says. */
  language?: string;
}

/**
 * `POST /voice/transcribe` (#16): a signed-in person's recording turned into text by the engine
 * `TRANSCRIBE_PROVIDER` names. Refused (5007) without one, and past the person's limits
 * (`limits.transcribe`, and a day's `limits.transcribeDaily`), before the recording is read; an
 * engine's failure is told in plain words (`notices.transcription` of the i18n texts).
 */
export async function transcribe(
  deps: Pick<VoiceDeps, 'transcription' | 'limits'>,
  caller: Caller,
  read: () => Promise<Recording>,
  signal: AbortSignal,
): Promise<Transcription> {
  const engine = deps.transcription;
  if (!engine) throw refused('notices.transcription.notSetUp');
  await consume(deps.limits.transcribe, caller.userId);
  await consume(deps.limits.transcribeDaily, caller.userId);
  const recording = await read();
  try {
    const text = await engine.transcribe(recording.audio, recording.mimeType, {
      // Whisper servers take ISO 639-1 codes: `en`, not `en-US`.
      language: recording.language?.split('-')[0]!.toLowerCase(),
      signal,
    });
    return { text };
  } catch (error) {
    if (!isSpeechError(error)) throw error;
    caller.log.warn(`transcribe for ${caller.userId}: ${error.message}`);
    throw refused(`notices.transcription.${error.failure}`);
  }
}
