import type { AudioClip } from '@mates/api-client';
import { consume } from '../accounts/rate-limits';
import { invalid, refused } from '../domain/errors';
import type { SpeechAudio, SpeechEngine, SpeechRequest } from './speech-engine';
import { spokenText } from './spoken-text';
import { chooseVoice } from './voices';
import { durationMs, sha256 } from './speech-facts';
import { blameless, countTry, failureKey, SYNTHESIS_TIMEOUT_MS } from './speech-making-service';
import { SPEECH_FILE_ENDINGS } from './speech-store';
import type { VoiceDeps } from './voice-deps';

/** The media type of a sample's stored file, by its ending. */
export const mimeOfSample = (key: string): string =>
  Object.entries(SPEECH_FILE_ENDINGS).find(([, ext]) => key.endsWith(`.${ext}`))?.[0] ??
  'application/octet-stream';

type Deps = Pick<VoiceDeps, 'log' | 'limits' | 'store' | 'links'>;

/**
 * `POST /voice/textToAudio` with a `text`: a voice's sample of those words (the first voice by
 * default), free and rate-limited. Samples are kept by voice and words: the same preview twice
 * is made once.
 */
export async function sampleAudio(
  deps: Deps,
  engine: SpeechEngine,
  userId: string,
  input: { text: string; voice?: string },
): Promise<AudioClip> {
  const voice = await chooseVoice(engine, deps.log, input.voice, (all) => all[0]!.voiceId);
  const text = await spokenText(input.text);
  if (!text) throw invalid('notices.voice.nothingToSayText');
  await consume(deps.limits.voiceSample, userId);
  const name = `sample-${sha256(`${voice}\n${text}`).slice(0, 40)}`;
  return (
    (await keptSample(deps, name)) ??
    (await makeSample(deps, engine, userId, name, { text, voice }))
  );
}

/** The sample `name` if it was made before, in whichever type it was kept. */
async function keptSample(deps: Deps, name: string): Promise<AudioClip | null> {
  for (const [mimeType, ext] of Object.entries(SPEECH_FILE_ENDINGS)) {
    const key = `${name}.${ext}`;
    const bytes = await deps.store.get(key);
    if (bytes)
      return {
        audioUrl: deps.links.sign(key).url,
        mimeType,
        durationMs: await durationMs(bytes, mimeType),
      };
  }
  return null;
}

/**
 * Makes and keeps the sample `name`, counted against the person's failed tries while it is
 * made and against their day's new samples.
 */
async function makeSample(
  deps: Deps,
  engine: SpeechEngine,
  userId: string,
  name: string,
  request: SpeechRequest,
): Promise<AudioClip> {
  const giveBack = await countTry(deps, userId);
  try {
    await consume(deps.limits.voiceSampleDaily, userId);
  } catch (error) {
    await giveBack();
    throw error;
  }
  /** Logs a failure, gives the try back when it is blameless, and tells it as it is told. */
  const failed = async (error: unknown) => {
    deps.log.warn(`voice sample: ${(error as Error).message}`);
    if (blameless(error)) await giveBack();
    return refused(failureKey(error));
  };
  let audio: SpeechAudio;
  try {
    audio = await engine.synthesize(request, { signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS) });
  } catch (error) {
    throw await failed(error);
  }
  const writer = deps.store.create(audio.mimeType, name);
  const parts: Uint8Array[] = [];
  try {
    for await (const chunk of audio.chunks) {
      parts.push(chunk);
      await writer.write(chunk);
    }
  } catch (error) {
    await writer.abort();
    throw await failed(error);
  }
  // Not the engine's fault when it fails: the media store's error says what happened.
  await writer.finish().finally(giveBack);
  return {
    audioUrl: deps.links.sign(writer.key).url,
    mimeType: audio.mimeType,
    durationMs: await durationMs(Buffer.concat(parts), audio.mimeType),
  };
}
