import { Hono } from 'hono';
import { z } from 'zod';
import type { Transcription } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { badInput, notice } from '../http/envelope';
import { consume } from '../accounts/rate-limits';
import { isSpeechError, type SpeechFailure } from './speech-engine';
import { en } from '../i18n/en';

/** What `POST /voice/transcribe` answers (5007) when `TRANSCRIBE_PROVIDER` is not set. */
export const TRANSCRIPTION_NOT_SET_UP = en.notices.transcription.notSetUp;

/** The largest recording `POST /voice/transcribe` takes, once decoded: 2 MB. */
export const TRANSCRIBE_MAX_BYTES = 2 * 1024 * 1024;

/** Why a recording was not turned into text, as people are told it (the detail goes to the log). */
export const TRANSCRIBE_FAILURES: Record<SpeechFailure, string> = {
  unreachable: en.notices.transcription.unreachable,
  unauthorized: en.notices.transcription.unauthorized,
  busy: en.notices.transcription.busy,
  rejected: en.notices.transcription.rejected,
  failed: en.notices.transcription.failed,
  timeout: en.notices.transcription.timeout,
  cut: en.notices.transcription.cut,
  malformed: en.notices.transcription.malformed,
  cancelled: en.notices.transcription.cancelled,
};

/** The longest base64 text that can decode to {@link TRANSCRIBE_MAX_BYTES}. */
const BASE64_MAX = Math.ceil(TRANSCRIBE_MAX_BYTES / 3) * 4;
const TOO_BIG = 'the recording must be at most 2 MB. Record a shorter message.';

/** The types browsers' recorders make, with an optional `;codecs=` part. */
const RECORDER_TYPE =
  /^audio\/(webm|ogg|mp4|mpeg|wav)(\s*;\s*codecs=("[\w.,+ -]{1,100}"|[\w.,+-]{1,100}))?$/i;

const transcribeSchema = z.object({
  audio: z
    .string()
    .min(1, 'the recording is empty.')
    .max(BASE64_MAX, TOO_BIG)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be the recording, base64-encoded.'),
  mimeType: z
    .string()
    .regex(
      RECORDER_TYPE,
      'must be audio/webm, audio/ogg, audio/mp4, audio/mpeg or audio/wav (optionally with ;codecs=…).',
    ),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i, 'must be a language tag such as en or en-US.')
    .optional(),
});

/**
 * `POST /voice/transcribe` (#16): a signed-in person's recording (base64, at most 2 MB) turned
 * into text by the engine `TRANSCRIBE_PROVIDER` names, for the composer's microphone. Answers
 * 5007 {@link TRANSCRIPTION_NOT_SET_UP} without one, and an engine's failure in plain words
 * ({@link TRANSCRIBE_FAILURES}). Rate-limited per user (`limits.transcribe`, and a day's
 * `limits.transcribeDaily`).
 */
export function transcribeRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/voice').post(
    '/voice/transcribe',
    transcribeSchema,
    async (c, read): Promise<Transcription> => {
      const user = requireUser(c);
      const engine = deps.transcription;
      if (!engine) throw notice(TRANSCRIPTION_NOT_SET_UP);
      await consume(deps.limits.transcribe, user.id);
      await consume(deps.limits.transcribeDaily, user.id);
      const input = await read();
      const audio = Buffer.from(input.audio, 'base64');
      if (audio.byteLength > TRANSCRIBE_MAX_BYTES) throw badInput(`audio: ${TOO_BIG}`);
      if (!audio.byteLength) throw badInput('audio: the recording is empty.');
      try {
        const text = await engine.transcribe(new Uint8Array(audio), input.mimeType, {
          // Whisper servers take ISO 639-1 codes: `en`, not `en-US`.
          language: input.language?.split('-')[0]!.toLowerCase(),
          signal: c.req.raw.signal,
        });
        return { text };
      } catch (error) {
        if (!isSpeechError(error)) throw error;
        c.get('log').warn(`transcribe for ${user.id}: ${error.message}`);
        throw notice(TRANSCRIBE_FAILURES[error.failure]);
      }
    },
  );
  return routes;
}
