import type { IsoDateTime } from './common';

/** What a model made available by `GET /aigc/models` does. */
export type AigcModelKind = 'chat' | 'image' | 'speech';

/** A picture's width × height, as the server draws them. */
export type ImageSize = '512x512' | '768x1024' | '1024x768' | '1024x1024';

/** One model the server offers. */
export interface AigcModel {
  /** Id to pass as `model`. */
  modelId: string;
  /** Display name. */
  name: string;
  /** What it does. */
  kind: AigcModelKind;
  /** Gold coins one use costs. */
  cost: number;
  /** Whether it is used when none is named. */
  isDefault: boolean;
  /**
   * What runs it: for pictures `openai` (any OpenAI-compatible images endpoint),
   * `automatic1111` or `comfyui`; for chat `embedded` or `openai`.
   */
  engine?: string;
  /** The sizes it draws (pictures only). */
  sizes?: ImageSize[];
}

/** Payload of `POST /room/createImage`: starts an image job. */
export interface CreateImagePayload {
  /** The room the image belongs to (the mate's look guides the prompt). */
  roomId: string;
  /** What to draw, 1–1,000 characters. */
  prompt: string;
  /** An image model id from `GET /aigc/models`; absent for the default. */
  model?: string;
  /** Width × height; default `768x1024`. */
  size?: ImageSize;
}

/** Answer of `POST /room/createImage`. */
export interface ImageJobRef {
  /** The job to poll with `GET /room/checkJobStatus`. */
  jobId: string;
}

/** Query of `GET /room/checkJobStatus`. */
export interface JobStatusQuery {
  /** The job. */
  jobId: string;
}

/** Where an image job stands. */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed';

/** Answer of `GET /room/checkJobStatus`. */
export interface JobStatus {
  /** The job. */
  jobId: string;
  /** Where it stands. */
  state: JobState;
  /** From 0 to 1. */
  progress: number;
  /** Image URLs once succeeded. */
  images: string[];
  /** Why it failed, or `null`. */
  error: string | null;
  /** When it was queued. */
  createdAt: IsoDateTime;
}

/** Payload of `POST /voice/textToAudio`. */
export interface TextToAudioPayload {
  /** The text to speak, 1–2,000 characters; or give `messageId` instead. */
  text?: string;
  /** A message to speak in its mate's voice. */
  messageId?: string;
  /** A voice id; absent for the mate's or the default voice. */
  voice?: string;
}

/** Answer of `POST /voice/textToAudio`. */
export interface AudioClip {
  /** URL of the audio file. */
  audioUrl: string;
  /** Its media type, e.g. `audio/wav`. */
  mimeType: string;
  /** Its length in milliseconds. */
  durationMs: number;
}

/** Payload of `POST /speech/link`: a link that streams a message as speech. */
export interface SpeechLinkPayload {
  /** The message to speak. */
  messageId: string;
  /** A voice id; absent for the mate's or the default voice. */
  voice?: string;
}

/** Answer of `POST /speech/link`. */
export interface SpeechLink {
  /** A URL an `<audio>` element can play directly. */
  url: string;
  /** When the link stops working. */
  expiresAt: IsoDateTime;
}
