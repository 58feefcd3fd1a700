import type { Gender } from '@mates/api-client';
import type { MediaStore } from '../media/media-store';

/**
 * Where the server serves the public part of the media store (its keys `media/…`): the URL of
 * the key `media/avatars/x.svg` is `/media/avatars/x.svg`, on every server.
 */
export const MEDIA_URL_PREFIX = '/media';

const STYLES = ['lorelei', 'notionists'] as const;
const BACKGROUNDS = ['b6a4e3', 'f2b8c6', 'a9d8e6', 'f6d6a8', 'b9e4c9'];

/** A DiceBear portrait style; both are CC0. */
export type PortraitStyle = (typeof STYLES)[number];

/** Whether `name` is one of the portrait styles. */
export const isPortraitStyle = (name: string): name is PortraitStyle =>
  (STYLES as readonly string[]).includes(name);

const variants = (numbers: number[]) => numbers.map((n) => `variant${String(n).padStart(2, '0')}`);
// Lorelei's hair styles, sorted by eye from a sheet of all 48: short cuts, and longer ones.
const LORELEI_SHORT_HAIR = variants([1, 2, 3, 4, 5, 7, 8, 9, 22, 25, 27, 28, 39, 44, 47]);
const LORELEI_LONG_HAIR = variants([
  10, 11, 13, 14, 15, 16, 17, 18, 19, 21, 23, 24, 26, 29, 30, 31, 32, 33, 35, 37, 40, 41, 42, 45,
  46, 48,
]);

/**
 * What a portrait of `gender` may look like: a woman has no beard and (in Lorelei) longer hair,
 * a man short hair; a non-binary mate, or none given, anything the style draws.
 */
export function portraitLooks(
  style: PortraitStyle,
  gender: Gender | undefined,
): Record<string, unknown> {
  if (gender === 'female')
    return style === 'lorelei'
      ? { hair: LORELEI_LONG_HAIR, beardProbability: 0 }
      : { beardProbability: 0 };
  if (gender === 'male')
    return style === 'lorelei'
      ? { hair: LORELEI_SHORT_HAIR, earringsProbability: 0, hairAccessoriesProbability: 0 }
      : {};
  return {};
}

/**
 * The SVG of a CC0 DiceBear portrait: the same style, seed and gender always draw the same
 * face, one that looks like the gender when it is given (the seeded vampire Sable had a beard).
 */
export async function portraitSvg(
  style: PortraitStyle,
  seed: string,
  gender?: Gender,
): Promise<string> {
  // Loaded at the first portrait drawn: the styles' drawings cost some 10 MB resident, which a
  // server past its first start (the seed) seldom needs.
  const [{ createAvatar }, collection] = await Promise.all([
    import('@dicebear/core'),
    import('@dicebear/collection'),
  ]);
  return createAvatar(collection[style] as never, {
    seed,
    backgroundColor: BACKGROUNDS,
    ...portraitLooks(style, gender),
  }).toString();
}

/**
 * Draws a portrait from a CC0 DiceBear style, seeded by `seed` (the same seed draws the
 * same face), stores it as `media/avatars/<id>.svg`, and returns its URL.
 */
export async function renderPortrait(
  media: MediaStore,
  id: string,
  style: PortraitStyle,
  seed: string,
  gender?: Gender,
): Promise<string> {
  const svg = await portraitSvg(style, seed, gender);
  await media.put(`media/avatars/${id}.svg`, svg, 'image/svg+xml');
  return `${MEDIA_URL_PREFIX}/avatars/${id}.svg`;
}
