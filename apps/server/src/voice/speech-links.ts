import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a speech link works. */
export const SPEECH_LINK_SECONDS = 60 * 60;

/** Where speech is served: `?clip&expires&signature`. */
export const SPEECH_PATH = '/api/voice/clip';

const signatureOf = (secret: Buffer, clip: string, expires: number) =>
  createHmac('sha256', secret).update(`speech:${clip}:${expires}`).digest('base64url');

/**
 * Signs links to speech clips, and checks them. The key is the picture links' (see
 * `images/picture-links.ts`); the signed text names what it is for, so a picture's signature
 * never opens a clip.
 */
export function speechLinks(secret: Buffer) {
  return {
    /** A link to the clip that works for an hour from `nowMs`, and when it stops working. */
    sign(clip: string, nowMs = Date.now()): { url: string; expiresAt: string } {
      const expires = Math.floor(nowMs / 1000) + SPEECH_LINK_SECONDS;
      const query = new URLSearchParams({
        clip,
        expires: String(expires),
        signature: signatureOf(secret, clip, expires),
      });
      return { url: `${SPEECH_PATH}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
    },
    /** Whether a link's fields are ours and not expired. */
    verify(clip: string, expires: string, signature: string, nowMs = Date.now()): boolean {
      const at = Number(expires);
      if (!/^\d{1,12}$/.test(expires) || at * 1000 < nowMs) return false;
      const expected = Buffer.from(signatureOf(secret, clip, at));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** What {@link speechLinks} answers. */
export type SpeechLinks = ReturnType<typeof speechLinks>;
