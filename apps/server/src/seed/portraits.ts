import fs from 'node:fs/promises';
import path from 'node:path';
import { createAvatar } from '@dicebear/core';
import { lorelei, notionists } from '@dicebear/collection';

/** Where the server serves the files of the media folder. */
export const MEDIA_URL_PREFIX = '/media';

const STYLES = { lorelei, notionists };
const BACKGROUNDS = ['b6a4e3', 'f2b8c6', 'a9d8e6', 'f6d6a8', 'b9e4c9'];

/** A DiceBear portrait style; both are CC0. */
export type PortraitStyle = keyof typeof STYLES;

/** Whether `name` is one of the portrait styles. */
export const isPortraitStyle = (name: string): name is PortraitStyle => Object.hasOwn(STYLES, name);

/** The SVG of a CC0 DiceBear portrait: the same style and seed always draw the same face. */
export function portraitSvg(style: PortraitStyle, seed: string): string {
  return createAvatar(STYLES[style] as never, { seed, backgroundColor: BACKGROUNDS }).toString();
}

/**
 * Draws a portrait from a CC0 DiceBear style, seeded by `seed` (the same seed draws the
 * same face), into `mediaDir/avatars/<id>.svg`, and returns its URL.
 */
export async function renderPortrait(
  mediaDir: string,
  id: string,
  style: PortraitStyle,
  seed: string,
): Promise<string> {
  const svg = portraitSvg(style, seed);
  await fs.mkdir(path.join(mediaDir, 'avatars'), { recursive: true });
  await fs.writeFile(path.join(mediaDir, 'avatars', `${id}.svg`), svg);
  return `${MEDIA_URL_PREFIX}/avatars/${id}.svg`;
}
