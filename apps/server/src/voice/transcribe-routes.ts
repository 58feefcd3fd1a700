import { Hono } from 'hono';
import { z } from 'zod';
import type { Transcription } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { badInput } from '../http/envelope';
import { transcribe, type Recording } from './transcription-service';

/** The largest recording `POST /voice/transcribe` takes, once decoded: 2 MB. */
export const TRANSCRIBE_MAX_BYTES = 2 * 1024 * 1024;

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

/** The recording of a checked input, decoded: 4000 when it is empty or over 2 MB once decoded. */
function recordingOf(input: z.output<typeof transcribeSchema>): Recording {
  const audio = Buffer.from(input.audio, 'base64');
  if (audio.byteLength > TRANSCRIBE_MAX_BYTES) throw badInput(`audio: ${TOO_BIG}`);
  if (!audio.byteLength) throw badInput('audio: the recording is empty.');
  return { audio: new Uint8Array(audio), mimeType: input.mimeType, language: input.language };
}

/**
 * `POST /voice/transcribe` (#16): a signed-in person's recording (base64, at most 2 MB) turned
 * into text for the composer's microphone (see `transcribe`, which reads it once the person's
 * limits allow).
 */
export function transcribeRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/voice').post(
    '/voice/transcribe',
    transcribeSchema,
    (c, read): Promise<Transcription> => {
      const caller = { userId: requireUser(c).id, log: c.get('log') };
      return transcribe(deps, caller, async () => recordingOf(await read()), c.req.raw.signal);
    },
  );
  return routes;
}
