import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

/** A buffer that is not a well-formed PNG. */
export class PngFormatError extends Error {
  override readonly name = 'PngFormatError';
  constructor(
    message: string,
    /** What is wrong, in a word: not a PNG at all, cut off, or without its end. */
    readonly problem: 'notPng' | 'pngCut' | 'pngNoEnd',
  ) {
    super(message);
  }
}

function readChunks(png: Buffer): Chunk[] {
  if (png.length < SIGNATURE.length || !png.subarray(0, 8).equals(SIGNATURE)) {
    throw new PngFormatError('This file is not a PNG image.', 'notPng');
  }
  const chunks: Chunk[] = [];
  let offset = SIGNATURE.length;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > png.length) throw new PngFormatError('The PNG image is cut off.', 'pngCut');
    chunks.push({ type, data: png.subarray(offset + 8, offset + 8 + length) });
    offset = end;
    if (type === 'IEND') return chunks;
  }
  throw new PngFormatError('The PNG image has no end.', 'pngNoEnd');
}

function writeChunk({ type, data }: Chunk): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The text of the `tEXt` chunk named `keyword`, or `undefined`. */
export function readPngText(png: Buffer, keyword: string): string | undefined {
  for (const chunk of readChunks(png)) {
    if (chunk.type !== 'tEXt') continue;
    const separator = chunk.data.indexOf(0);
    if (separator < 0) continue;
    if (chunk.data.toString('latin1', 0, separator) === keyword) {
      return chunk.data.toString('latin1', separator + 1);
    }
  }
  return undefined;
}

// The text chunks and where their keyword ends (`tEXt`, `zTXt` and `iTXt` all start with it).
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);

function textKeyword(chunk: Chunk): string | undefined {
  if (!TEXT_CHUNKS.has(chunk.type)) return undefined;
  const separator = chunk.data.indexOf(0);
  return separator < 0 ? undefined : chunk.data.toString('latin1', 0, separator);
}

/** The PNG without any text chunk (`tEXt`, `zTXt`, `iTXt`) named by one of `keywords`. */
export function withoutPngText(png: Buffer, keywords: readonly string[]): Buffer {
  const kept = readChunks(png).filter((chunk) => !keywords.includes(textKeyword(chunk) ?? ''));
  return Buffer.concat([SIGNATURE, ...kept.map(writeChunk)]);
}

/** The PNG with one `tEXt` chunk `keyword` = `text` (replacing any), placed before IEND. */
export function writePngText(png: Buffer, keyword: string, text: string): Buffer {
  const kept = readChunks(png).filter(
    (chunk) =>
      !(
        chunk.type === 'tEXt' && chunk.data.toString('latin1', 0, chunk.data.indexOf(0)) === keyword
      ),
  );
  const textChunk: Chunk = {
    type: 'tEXt',
    data: Buffer.concat([
      Buffer.from(keyword, 'latin1'),
      Buffer.from([0]),
      Buffer.from(text, 'latin1'),
    ]),
  };
  const end = kept.findIndex((chunk) => chunk.type === 'IEND');
  kept.splice(end, 0, textChunk);
  return Buffer.concat([SIGNATURE, ...kept.map(writeChunk)]);
}
