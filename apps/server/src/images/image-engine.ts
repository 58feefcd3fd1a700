import type { ImageProvider } from '../config';
import { ProviderError, type ProviderFailure } from '../domain/provider-error';
import { callDeadline, failureOfStatus } from '../http/engine-calls';
import { loadSharp } from './load-sharp';

/** What to draw. */
export interface ImageRequest {
  /** What the picture shows. */
  prompt: string;
  /** What it must not show; the engine adds its own when `nsfw` is false. */
  negativePrompt?: string;
  width: number;
  height: number;
  /** A model id from {@link ImageEngine.listModels}; absent: `IMAGE_MODEL`, else the first listed. */
  model?: string;
  /** Whether mature content is allowed (the user's preference and the mate's flag together). */
  nsfw: boolean;
  /** The same seed and prompt draw the same picture on engines that take one; absent: random. */
  seed?: number;
}

/** How one generation is run. */
export interface GenerateImageOptions {
  /** Cancels the generation at the engine where it can (A1111 interrupt, ComfyUI interrupt). */
  signal: AbortSignal;
  /** Called with 0–1, never decreasing, where the engine reports progress (A1111, ComfyUI). */
  onProgress?: (fraction: number) => void;
}

/** One picture an engine made: checked to be a real PNG, JPEG or WebP image. */
export interface GeneratedImage {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/** A model an engine offers. */
export interface ImageModel {
  /** What to pass as {@link ImageRequest.model}. */
  id: string;
  /** Display name. */
  name: string;
}

/**
 * A picture engine: an OpenAI-compatible images endpoint, AUTOMATIC1111/Forge or ComfyUI,
 * chosen by `IMAGE_PROVIDER` (see `createImageEngine`). Every failure is an
 * image {@link ProviderError} (`provider: 'image'`); nothing rejects with anything else.
 */
export interface ImageEngine {
  /** Which kind of engine it is. */
  readonly provider: ImageProvider;
  /** The models it offers: listed by the engine where it can (A1111, ComfyUI), else `IMAGE_MODEL`. */
  listModels: (signal?: AbortSignal) => Promise<ImageModel[]>;
  /** Draws one picture. */
  generate: (request: ImageRequest, options: GenerateImageOptions) => Promise<GeneratedImage[]>;
  /** For the start-up log: the engine and its address, never its key. */
  describe: () => string;
}

/**
 * What went wrong with a picture engine, as people are told it (the detail is for the log);
 * see {@link ProviderFailure}. `timeout` is no picture within `IMAGE_TIMEOUT`; `malformed`
 * also covers an answer with no image in it.
 */
export type ImageFailure = Extract<
  ProviderFailure,
  | 'unreachable'
  | 'unauthorized'
  | 'busy'
  | 'refused'
  | 'rejected'
  | 'failed'
  | 'timeout'
  | 'cut'
  | 'malformed'
  | 'cancelled'
>;

/**
 * Added to the negative prompt when mature content is not allowed, on engines that take one
 * (A1111, ComfyUI). OpenAI-compatible endpoints keep their own moderation (`auto`).
 */
export const SAFE_NEGATIVE_PROMPT =
  'nsfw, nude, naked, nudity, topless, sexual, explicit, porn, erotic, genitals, nipples, lingerie';

/** The negative prompt an engine sends: the caller's, plus {@link SAFE_NEGATIVE_PROMPT} unless nsfw. */
export function negativePromptOf(request: ImageRequest): string {
  return [request.negativePrompt?.trim(), request.nsfw ? '' : SAFE_NEGATIVE_PROMPT]
    .filter(Boolean)
    .join(', ');
}

/** A random seed in the range every engine takes (32-bit unsigned). */
export function seedOf(request: ImageRequest): number {
  return request.seed ?? Math.floor(Math.random() * 2 ** 32);
}

/**
 * The time limit of one call to a picture engine, joined with the caller's signal: see
 * {@link callDeadline}. `explain` turns whatever a call threw into an image
 * {@link ProviderError}: cancelled, timed out, unreachable or cut.
 */
export const deadline = (engine: string, timeoutMs: number, caller?: AbortSignal) =>
  callDeadline<ImageFailure>('image', engine, timeoutMs, caller, 'made no picture within');

/** An engine answered an error status: the body is kept (shortened) for the log. */
export function statusError(
  engine: string,
  status: number,
  body: string,
): ProviderError<ImageFailure> {
  return new ProviderError(
    `${engine} answered ${status}: ${body.slice(0, 500)}`,
    failureOfStatus(status),
    { status, provider: 'image' },
  );
}

/** Reads a JSON answer; a body that is not JSON is `malformed`, an error status mapped. */
export async function readJson(engine: string, response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw statusError(engine, response.status, text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(
      `${engine} answered something that is not JSON: ${text.slice(0, 300)}`,
      'malformed',
      { status: response.status, provider: 'image' },
    );
  }
}

const MIME_TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
} as const;

/** Checks that `data` is a whole PNG, JPEG or WebP image (decoding it) and names its type. */
export async function checkImage(engine: string, data: Buffer): Promise<GeneratedImage> {
  try {
    const sharp = await loadSharp();
    const image = sharp(data, { failOn: 'error' });
    const { format, width, height } = await image.metadata();
    const mimeType = MIME_TYPES[format as keyof typeof MIME_TYPES];
    if (!mimeType || !width || !height) throw new Error(`format ${format ?? 'unknown'}`);
    // Decodes every pixel: a picture cut short fails here, not in someone's browser.
    await image.raw().toBuffer();
    return { data, mimeType, width, height };
  } catch (error) {
    throw new ProviderError(
      `${engine} answered bytes that are not a PNG, JPEG or WebP image: ${(error as Error).message}`,
      'malformed',
      { cause: error, provider: 'image' },
    );
  }
}

/** Headers carrying `IMAGE_API_KEY`: `user:password` as Basic (A1111 `--api-auth`), else Bearer. */
export function authHeaders(apiKey: string | undefined): Record<string, string> {
  if (!apiKey) return {};
  return {
    authorization: apiKey.includes(':')
      ? `Basic ${Buffer.from(apiKey).toString('base64')}`
      : `Bearer ${apiKey}`,
  };
}

/**
 * A JSON call to an engine at `baseUrl` with `IMAGE_API_KEY`: GET without a body, POST with
 * one.
 */
export function engineCaller(
  fetch: typeof globalThis.fetch,
  baseUrl: string,
  apiKey: string | undefined,
) {
  const headers = { 'content-type': 'application/json', ...authHeaders(apiKey) };
  return (path: string, signal: AbortSignal, body?: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
}
