import { randomUUID } from 'node:crypto';
import { MEDIA_URL_PREFIX, renderPortrait } from '../seed/portraits';
import type { MediaStore } from '../media/media-store';

const AVATARS = `${MEDIA_URL_PREFIX}/avatars/`;

/** The kinds of portrait file we store: card PNGs, drawn SVGs, uploaded pictures as WebP. */
export type PortraitExtension = '.png' | '.svg' | '.webp';

const TYPES: Record<PortraitExtension, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

/**
 * Portraits are served to whoever holds their address (an `<img>` sends no token), so the
 * address of a private mate's portrait is the secret: a random name, never the mate's id.
 */
export function newPortraitName(extension: PortraitExtension): string {
  return `${randomUUID()}${extension}`;
}

/**
 * The media store key behind a portrait URL of ours (`/media/avatars/x.svg` →
 * `media/avatars/x.svg`), or `null` for any other URL.
 */
export function portraitKey(url: string): string | null {
  if (!url.startsWith(AVATARS)) return null;
  const name = url.slice(AVATARS.length);
  return /^[\w-]+\.(png|svg|webp)$/.test(name) ? `media/avatars/${name}` : null;
}

/** Stores a portrait under a new random name and returns its URL. */
export async function writePortrait(
  media: MediaStore,
  bytes: Buffer | string,
  extension: PortraitExtension,
): Promise<string> {
  const name = newPortraitName(extension);
  await media.put(`media/avatars/${name}`, bytes, TYPES[extension]);
  return AVATARS + name;
}

/** Removes a portrait of ours (nothing happens for another URL or a missing file). */
export async function removePortrait(media: MediaStore, url: string): Promise<void> {
  const key = portraitKey(url);
  if (key) await media.remove(key);
}

/** The bytes of a portrait of ours, or `null` for another URL or a missing file. */
export async function readPortrait(media: MediaStore, url: string): Promise<Buffer | null> {
  const key = portraitKey(url);
  return key ? media.get(key) : null;
}

/**
 * A copy of a portrait of ours under a new random name (so that changing or deleting either
 * leaves the other alone); another URL is kept as it is. When the file has gone missing, a
 * new portrait is drawn for `name` instead, so the copy never points at nothing.
 */
export async function copyPortrait(media: MediaStore, url: string, name: string): Promise<string> {
  const key = portraitKey(url);
  if (!key) return url;
  const bytes = await media.get(key);
  return bytes
    ? writePortrait(media, bytes, key.slice(key.lastIndexOf('.')) as PortraitExtension)
    : renderPortrait(media, randomUUID(), 'notionists', name);
}
