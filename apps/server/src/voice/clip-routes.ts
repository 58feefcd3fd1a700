import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '../http/context';
import { DomainError } from '../domain/errors';
import { en } from '../i18n/en';
import { openClip, type ClipOpening } from './speech-clip-service';
import { failureOf } from './speech-making-service';
import type { VoiceDeps } from './voice-deps';

const clipQuery = z.object({
  clip: z.string().min(1).max(100),
  expires: z.string().min(1).max(20),
  signature: z.string().min(1).max(100),
});

/**
 * Why a clip's making was refused or failed before it began, as its listener is told. A refusal
 * (too many of the person's clips failed or are being made) says itself; an engine's failure is
 * told in plain words.
 */
function whyNotStarted(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  return en.notices.voice[failureOf(error)];
}

/** The answer to a player for what {@link openClip} found. */
function played(
  c: Context<ApiEnv>,
  deps: VoiceDeps,
  opening: ClipOpening,
): Response | Promise<Response> {
  switch (opening.kind) {
    case 'notFound':
      return c.text('Not found', 404);
    case 'forbidden':
      return c.text('Forbidden', 403);
    case 'notSetUp':
      return c.text(en.notices.voice.notSetUp, 503);
    case 'notStarted':
      return c.text(`${whyNotStarted(opening.error)} Your gold coins were given back.`, 502);
    case 'notMade':
      return c.text(en.notices.voice.notMade, 502);
    case 'live':
      return new Response(opening.stream, {
        status: 200,
        headers: { 'content-type': opening.mimeType, 'cache-control': 'private, no-store' },
      });
    case 'stored':
      return deps.store.serve(opening.file, opening.mimeType, c.req.raw);
  }
}

/**
 * `GET /voice/clip` on `voice`: plays a clip to whoever holds a signed link, with `Range`
 * support. Not through `contract`: it answers bytes, not an envelope, to an `<audio>` that
 * sends no token.
 */
export function clipRoute(voice: Hono<ApiEnv>, deps: VoiceDeps): void {
  voice.get('/clip', async (c) => {
    const parsed = clipQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    return played(c, deps, await openClip(deps, parsed.data));
  });
}
