import pLimit from 'p-limit';
import type { Metadata } from 'sharp';
import { loadSharp } from '../images/load-sharp';
import { DomainError, invalid } from '../domain/errors';

/** The largest picture a creator may upload, in bytes (decoded). */
export const MAX_PORTRAIT_BYTES = 8 * 1024 * 1024;

/** The shortest side an uploaded picture may have, in pixels. */
export const MIN_PORTRAIT_SIDE = 256;

/** The size every uploaded portrait is cropped and resized to (2:3, as cards show them). */
export const PORTRAIT_SIZE = { width: 512, height: 768 } as const;

/**
 * The most pixels a picture may decode to (about 50 megapixels, a large phone photo): a small
 * file that claims to be huge (a decompression bomb) is refused before it is decoded.
 */
export const MAX_PORTRAIT_PIXELS = 50_000_000;

/**
 * The most passes (scans) a progressive JPEG may have: photos have about ten. Each pass is a
 * decode of the whole picture, so a file of thousands (valid, and small enough) would hold a
 * picture job for a minute. libjpeg's own tools stop at a limit of this kind (`-maxscans`).
 */
export const MAX_JPEG_SCANS = 100;

/** How long one picture job may run before it is given up (sharp's `timeout`), in seconds. */
const PORTRAIT_TIMEOUT_SECONDS = 10;

/**
 * The passes of a JPEG: its start-of-scan markers (FF DA). Inside a scan's coded data an FF is
 * always followed by 00 or a restart marker, so only a marker reads FF DA there; metadata could
 * hold a stray one, which errs on the side of refusing a file built to hold thousands.
 */
function jpegScans(bytes: Buffer): number {
  let scans = 0;
  for (
    let at = bytes.indexOf(0xff);
    at >= 0 && at < bytes.length - 1;
    at = bytes.indexOf(0xff, at + 1)
  )
    if (bytes[at + 1] === 0xda) scans += 1;
  return scans;
}

/**
 * The picture jobs (decode, crop, encode) that may run at once; the rest wait their turn.
 * p-limit rather than sharp's own `sharp.queue`/`sharp.concurrency`: those set libvips'
 * threads per job and only report the queue, they do not hold a job back.
 */
export const portraitJobs = pLimit(2);

const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);

// EXIF orientations 5 to 8 turn the picture a quarter: its width becomes its height.
const turnsQuarter = (orientation: number | undefined) => (orientation ?? 1) >= 5;

/**
 * Checks an uploaded picture and makes a portrait of it: PNG, JPEG, WebP or GIF (read from
 * the bytes, not from a name or a type the client claims), at most 8 MB and at least 256
 * pixels on its short side; turned upright by its EXIF orientation, cover-cropped to 512×768
 * and written as WebP, which carries none of the original's metadata (location, camera,
 * comments, colour profile). Anything else is refused as bad input naming `image`.
 */
export function portraitFromUpload(bytes: Buffer): Promise<Buffer> {
  return portraitJobs(() => makePortrait(bytes));
}

/**
 * The picture of a card PNG as a portrait, by the same rules as an upload ({@link
 * portraitFromUpload}), or `null` when it cannot be one (too small, too large, undecodable):
 * the card is still welcome, with a drawn portrait.
 */
export async function portraitFromCardPicture(png: Buffer): Promise<Buffer | null> {
  try {
    return await portraitFromUpload(png);
  } catch (error) {
    if (error instanceof DomainError && error.refusal === 'badInput') return null;
    throw error;
  }
}

async function makePortrait(bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0) throw invalid('notices.portraits.empty');
  if (bytes.length > MAX_PORTRAIT_BYTES) throw invalid('notices.portraits.tooBig');
  const options = { limitInputPixels: MAX_PORTRAIT_PIXELS, failOn: 'truncated' } as const;
  let meta: Metadata;
  try {
    const sharp = await loadSharp();
    meta = await sharp(bytes, options).metadata();
  } catch {
    throw invalid('notices.portraits.unreadable');
  }
  if (!meta.format || !FORMATS.has(meta.format))
    throw meta.format
      ? invalid('notices.portraits.otherFormat', { format: meta.format.toUpperCase() })
      : invalid('notices.portraits.noFormat');
  const [width, height] = turnsQuarter(meta.orientation)
    ? [meta.height, meta.width]
    : [meta.width, meta.height];
  if (!width || !height || Math.min(width, height) < MIN_PORTRAIT_SIDE)
    throw invalid('notices.portraits.tooSmall', {
      min: MIN_PORTRAIT_SIDE,
      width: width ?? '?',
      height: height ?? '?',
    });
  if (width * height > MAX_PORTRAIT_PIXELS)
    throw invalid('notices.portraits.tooManyPixels', { width, height });
  if (meta.format === 'jpeg' && meta.isProgressive) {
    const scans = jpegScans(bytes);
    if (scans > MAX_JPEG_SCANS)
      throw invalid('notices.portraits.tooManyScans', { scans, max: MAX_JPEG_SCANS });
  }
  try {
    const sharp = await loadSharp();
    return await sharp(bytes, options)
      .timeout({ seconds: PORTRAIT_TIMEOUT_SECONDS })
      .rotate()
      .resize(PORTRAIT_SIZE.width, PORTRAIT_SIZE.height, { fit: 'cover', position: 'attention' })
      .webp({ quality: 86 })
      .toBuffer();
  } catch {
    // A header that reads well over data that does not (cut off, corrupt).
    throw invalid('notices.portraits.damaged');
  }
}
