import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MEDIA_URL_PREFIX, renderPortrait } from '../seed/portraits';

const AVATARS = `${MEDIA_URL_PREFIX}/avatars/`;

/** The kinds of portrait file we store: card PNGs, drawn SVGs, uploaded pictures as WebP. */
export type PortraitExtension = '.png' | '.svg' | '.webp';

/**
 * Portraits are served to whoever holds their address (an `<img>` sends no token), so the
 * address of a private mate's portrait is the secret: a random name, never the mate's id.
 */
export function newPortraitName(extension: PortraitExtension): string {
  return `${randomUUID()}${extension}`;
}

/** The file behind a portrait URL of ours, or `null` for any other URL. */
export function portraitFile(mediaDir: string, url: string): string | null {
  if (!url.startsWith(AVATARS)) return null;
  const name = url.slice(AVATARS.length);
  return /^[\w-]+\.(png|svg|webp)$/.test(name) ? path.join(mediaDir, 'avatars', name) : null;
}

/** Writes a portrait under a new random name and returns its URL. */
export async function writePortrait(
  mediaDir: string,
  bytes: Buffer | string,
  extension: PortraitExtension,
): Promise<string> {
  const name = newPortraitName(extension);
  await fs.mkdir(path.join(mediaDir, 'avatars'), { recursive: true });
  await fs.writeFile(path.join(mediaDir, 'avatars', name), bytes);
  return AVATARS + name;
}

/** Removes a portrait of ours (nothing happens for another URL or a missing file). */
export async function removePortrait(mediaDir: string, url: string): Promise<void> {
  const file = portraitFile(mediaDir, url);
  if (file) await fs.rm(file, { force: true });
}

/**
 * A copy of a portrait of ours under a new random name (so that changing or deleting either
 * leaves the other alone); another URL is kept as it is. When the file has gone missing, a
 * new portrait is drawn for `name` instead, so the copy never points at nothing.
 */
export async function copyPortrait(mediaDir: string, url: string, name: string): Promise<string> {
  const file = portraitFile(mediaDir, url);
  if (!file) return url;
  const bytes = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return bytes
    ? writePortrait(mediaDir, bytes, path.extname(file) as PortraitExtension)
    : renderPortrait(mediaDir, randomUUID(), 'notionists', name);
}
