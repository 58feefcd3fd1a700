import { createHash } from 'node:crypto';

/** The SHA-256 of `text`, in hex: what a clip keeps of the words it speaks. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The length of audio in milliseconds (0 when its format does not tell). */
export async function durationMs(bytes: Uint8Array, mimeType: string): Promise<number> {
  try {
    // music-metadata is loaded at the first recording: a server that hears none never needs it.
    const { parseBuffer } = await import('music-metadata');
    const { format } = await parseBuffer(bytes, { mimeType, size: bytes.length });
    return format.duration ? Math.round(format.duration * 1000) : 0;
  } catch {
    return 0;
  }
}
