import { Hono } from 'hono';
import { z } from 'zod';
import type { AudioClip, SpeechLink, VoiceCatalog } from '@mates/api-client';
import { VOICE_SAMPLE_MAX } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { clipRoute } from './clip-routes';
import { linkClip } from './speech-clip-service';
import { textToAudio, voiceCatalog } from './voice-service';
import { voiceDeps } from './voice-deps';

const voiceId = z.string().min(1).max(100);
const linkSchema = z.object({ messageId: z.string().min(1).max(100), voice: voiceId.optional() });
const textToAudioSchema = z
  .object({
    text: z.string().trim().min(1, 'is required').max(VOICE_SAMPLE_MAX).optional(),
    messageId: z.string().min(1).max(100).optional(),
    voice: voiceId.optional(),
  })
  .refine((input) => (input.text === undefined) !== (input.messageId === undefined), {
    message: 'give either text or messageId',
  });

/**
 * Voice (#16): `GET /voice/voices`, `POST /speech/link`, `POST /voice/textToAudio` and
 * `GET /voice/clip`, which serves a clip to whoever holds a signed link (an `<audio>` element
 * sends no token), with `Range` support. A message's clip is charged when first linked, made on
 * first play (streamed while it is stored), and kept until the message's words change.
 * With `SPEECH_PROVIDER=none` every call answers 5007 (`notices.voice.notSetUp`).
 */
export function voiceRoutes(deps: Deps): { voice: Hono<ApiEnv>; speech: Hono<ApiEnv> } {
  const service = voiceDeps(deps);
  const voice = new Hono<ApiEnv>();
  const speech = new Hono<ApiEnv>();
  clipRoute(voice, service);
  const api = contract(voice, '/voice');

  api.get('/voice/voices', (c): Promise<VoiceCatalog> => voiceCatalog(service, c.get('log')));

  contract(speech, '/speech').post('/speech/link', linkSchema, (c, read): Promise<SpeechLink> =>
    linkClip(service, requireUser(c).id, read),
  );

  api.post('/voice/textToAudio', textToAudioSchema, (c, read): Promise<AudioClip> => {
    const caller = { userId: requireUser(c).id, log: c.get('log') };
    return textToAudio(service, caller, read);
  });

  return { voice, speech };
}
