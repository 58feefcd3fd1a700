import type { CardFile, ImportCardPayload } from '@mates/api-client';

/** The largest JSON card the import takes: 12 MB, the most the server reads of one call. */
export const CARD_FILE_MAX_BYTES = 12 * 1024 * 1024;

/**
 * The largest PNG card: 8 MB, the most the server takes of a picture (as of a portrait upload).
 * One over it passed here and was refused by the server in its own words ("png: must be at
 * most 8 MB"), in English, naming a field the person never saw.
 */
export const CARD_PNG_MAX_BYTES = 8 * 1024 * 1024;

/** What the file picker offers: PNG and JSON cards. */
export const CARD_FILE_ACCEPT = '.png,.json,image/png,application/json';

/** Why a file cannot be a card, before the server sees it. */
export type CardFileProblem = 'count' | 'type' | 'size' | 'pngSize' | 'json';

/** A file read as a card: what to send, and the PNG's own picture to show beside the preview. */
export type ReadCardFile =
  | { ok: true; payload: ImportCardPayload; picture: string | null; fileName: string }
  | { ok: false; problem: CardFileProblem };

function kindOf(file: File): 'png' | 'json' | null {
  const name = file.name.toLowerCase();
  if (file.type === 'image/png' || name.endsWith('.png')) return 'png';
  if (file.type === 'application/json' || name.endsWith('.json')) return 'json';
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * Reads what was dropped or picked as one card: a PNG becomes base64 `png`, a JSON file a
 * parsed `card`. Anything else, more than one file, a PNG over 8 MB, a JSON file over 12 MB or
 * JSON that does not parse is refused here, so the server only sees what could be a card.
 */
export async function readCardFiles(files: readonly File[]): Promise<ReadCardFile> {
  const [file] = files;
  if (!file || files.length !== 1) return { ok: false, problem: 'count' };
  const kind = kindOf(file);
  if (!kind) return { ok: false, problem: 'type' };
  if (file.size > CARD_FILE_MAX_BYTES) return { ok: false, problem: 'size' };
  if (kind === 'png') {
    if (file.size > CARD_PNG_MAX_BYTES) return { ok: false, problem: 'pngSize' };
    // A data URL is the PNG in base64 behind a prefix: the prefix goes, the picture is kept to show.
    const dataUrl = await readAsDataUrl(file);
    const png = dataUrl.slice(dataUrl.indexOf(',') + 1);
    return {
      ok: true,
      payload: { png },
      picture: `data:image/png;base64,${png}`,
      fileName: file.name,
    };
  }
  try {
    const card: unknown = JSON.parse(await file.text());
    return { ok: true, payload: { card }, picture: null, fileName: file.name };
  } catch {
    // A file that is not JSON is the person's mistake, said to them; nothing to log.
    return { ok: false, problem: 'json' };
  }
}

/** Saves a file the server wrote (an exported card) under the server's file name. */
export function saveCardFile(file: CardFile, document: Document): void {
  const bytes = Uint8Array.from(atob(file.data), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; free it after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
