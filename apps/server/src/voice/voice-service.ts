import type { AudioClip, VoiceCatalog } from '@mates/api-client';
import { refused } from '../domain/errors';
import { en } from '../i18n/en';
import type { Logger } from '../logging/logger';
import { voicesOf } from './voices';
import { messageAudio } from './speech-clip-service';
import { sampleAudio } from './voice-sample-service';
import { readySpeech, type VoiceDeps } from './voice-deps';

/** What every voice call answers (5007) when `SPEECH_PROVIDER` is `none`. */
export const VOICE_NOT_SET_UP = en.notices.voice.notSetUp;

/** What hearing a message costs to whoever has too few gold coins (5007). */
export const NOT_ENOUGH_COINS_FOR_VOICE = en.notices.voice.notEnoughCoins;

/** A message with no words left once its actions (`*smiles*`) and markdown are set aside. */
export const NOTHING_TO_SAY = en.notices.voice.nothingToSay;

/** Who calls: the signed-in person, and the request's log. */
export interface Caller {
  userId: string;
  log: Logger;
}

/**
 * `GET /voice/voices`: the engine's voices, what hearing a message costs, and whether speech to
 * text is there (5007 when neither speech nor speech to text is set up).
 */
export async function voiceCatalog(
  deps: Pick<VoiceDeps, 'speech' | 'transcription' | 'cost'>,
  log: Logger,
): Promise<VoiceCatalog> {
  if (!deps.speech && !deps.transcription) throw refused('notices.voice.notSetUp');
  return {
    voices: deps.speech ? await voicesOf(deps.speech, log) : [],
    costPerMessage: deps.speech ? deps.cost : 0,
    transcription: deps.transcription !== null,
  };
}

/**
 * `POST /voice/textToAudio`: a mate's message as a whole clip (`messageId`, charged as a link
 * is), or a free sample of a voice (`text`).
 */
export async function textToAudio(
  deps: VoiceDeps,
  caller: Caller,
  read: () => Promise<{ text?: string; messageId?: string; voice?: string }>,
): Promise<AudioClip> {
  const engine = readySpeech(deps);
  const { text, messageId, voice } = await read();
  if (messageId !== undefined)
    return messageAudio(deps, engine, caller.userId, { messageId, voice });
  // The input has either a message or a text.
  return sampleAudio({ ...deps, log: caller.log }, engine, caller.userId, { text: text!, voice });
}
