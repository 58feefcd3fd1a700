import type { IsoDateTime, PageQuery } from './common';

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
  /** The picture's message in the room, written at once with the job queued. */
  messageId: string;
}

/** Query of `GET /room/checkJobStatus`. */
export interface JobStatusQuery {
  /** The job. */
  jobId: string;
}

/** Every state of an image job, in the order a job moves through them. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** Where an image job stands: `failed` and `cancelled` gave the gold coins back. */
export type JobState = (typeof JOB_STATES)[number];

/** Answer of `GET /room/checkJobStatus`. */
export interface JobStatus {
  /** The job. */
  jobId: string;
  /** Where it stands. */
  state: JobState;
  /** From 0 to 1. */
  progress: number;
  /**
   * Image URLs once succeeded. They are signed for the room's owner and expire (an hour);
   * ask again (or load the room) for fresh ones.
   */
  images: string[];
  /** Why it failed, in plain words and in the caller’s language, or `null`. */
  error: string | null;
  /** When it was queued. */
  createdAt: IsoDateTime;
  /** The picture's message in the room. */
  messageId: string;
}

/** Payload of `POST /room/cancelImage`: stops a queued or running picture; coins come back. */
export interface CancelImagePayload {
  /** The job. */
  jobId: string;
}

/** A picture in a room: the `image` of a {@link Message} the mate "sends". */
export interface MessageImage {
  /** Its job. */
  jobId: string;
  /** Where the job stands. */
  state: JobState;
  /** From 0 to 1. */
  progress: number;
  /** The picture (a signed URL that expires), once succeeded; else `null`. */
  url: string | null;
  /** What was asked for. */
  prompt: string;
  /** Its size. */
  size: ImageSize;
  /** The image model it was asked of (an id from `GET /aigc/models`), or `null` for the default. */
  model: string | null;
  /** Why it failed, in the caller’s language, or `null`. */
  error: string | null;
  /**
   * A public link anyone can open, while the room's owner shares it (`POST /room/sharePicture`);
   * else `null`.
   */
  sharedUrl: string | null;
}

/** Query of `GET /room/pictures`: the finished pictures of one of the caller's rooms, newest first. */
export interface RoomPicturesQuery extends PageQuery {
  /** The room. */
  roomId: string;
}

/** A finished picture of a room, as `/chat-profile`'s gallery lists it. */
export interface RoomPicture {
  /** Its message in the room. */
  messageId: string;
  /** The room. */
  roomId: string;
  /** The picture: a signed URL for the room's owner that expires (an hour). */
  url: string;
  /** What was asked for. */
  prompt: string;
  /** Its size. */
  size: ImageSize;
  /** The image model it was asked of, or `null` for the default. */
  model: string | null;
  /** When it was asked for. */
  createdAt: IsoDateTime;
  /** Its public link while shared, else `null`. */
  sharedUrl: string | null;
}

/**
 * Payload of `POST /room/sharePicture`: gives a finished picture a public link anyone can open
 * (`shared: true`) or takes it away (`shared: false`; the old link stops working at once).
 */
export interface SharePicturePayload {
  /** The picture's message, in one of the caller's rooms. */
  messageId: string;
  /** Whether it is shared. */
  shared: boolean;
}

/** Who a voice sounds like. */
export type VoiceGender = 'female' | 'male' | 'neutral';

/** One voice the server can speak in, from `GET /voice/voices`. */
export interface Voice {
  /** Id to pass as `voice`, and to keep as a mate's {@link Mate.voice}. */
  voiceId: string;
  /** Display name, e.g. `Sally`. */
  name: string;
  /** Who it sounds like. */
  gender: VoiceGender;
  /** The language it speaks, as a BCP 47 tag, e.g. `en-US`. */
  language: string;
  /** What speaks it: `embedded` (offline, in the server), `local` (a Kokoro or Piper model on the server) or `openai`. */
  engine: string;
}

/** Answer of `GET /voice/voices`: what the server can say, and in which voices. */
export interface VoiceCatalog {
  /** Every voice, in the order to offer them. */
  voices: Voice[];
  /** Gold coins one message costs to hear (once: the audio is kept); `0` for free. */
  costPerMessage: number;
  /** Whether `POST /voice/transcribe` turns recorded speech into text on this server. */
  transcription: boolean;
}

/**
 * Payload of `POST /voice/textToAudio`: one message spoken whole, or a short sample of a voice.
 * Give `messageId` (a message of one of the caller's rooms, charged as one message) or `text`
 * (a free sample of at most {@link VOICE_SAMPLE_MAX} characters, e.g. to preview a voice).
 */
export interface TextToAudioPayload {
  /** A sample text to speak, 1–300 characters; or give `messageId` instead. */
  text?: string;
  /** A message to speak, by default in its mate's voice. */
  messageId?: string;
  /** A voice id from `GET /voice/voices`; absent for the mate's voice (or the default). */
  voice?: string;
}

/** The longest sample `POST /voice/textToAudio` speaks from `text`, in characters. */
export const VOICE_SAMPLE_MAX = 300;

/** Answer of `POST /voice/textToAudio`. */
export interface AudioClip {
  /** URL of the audio file (signed for the caller where it is a message's; it expires). */
  audioUrl: string;
  /** Its media type, e.g. `audio/wav`. */
  mimeType: string;
  /** Its length in milliseconds. */
  durationMs: number;
}

/**
 * Payload of `POST /speech/link`: a link that plays a message as speech. The same message in the
 * same voice is the same file: asking again costs nothing, and editing the message drops it.
 */
export interface SpeechLinkPayload {
  /** The message to speak, a mate's message in one of the caller's rooms. */
  messageId: string;
  /** A voice id; absent for the mate's voice (or the default). */
  voice?: string;
}

/** Answer of `POST /speech/link`. */
export interface SpeechLink {
  /**
   * A URL an `<audio>` element can play directly, with `Range` support. The first play streams
   * while it is spoken where the engine allows it; later plays read the kept file.
   */
  url: string;
  /** When the link stops working (ask again for a fresh one; the audio is kept). */
  expiresAt: IsoDateTime;
  /** The voice it speaks in. */
  voice: string;
  /** Gold coins this call took: the cost the first time, `0` when the audio was already made. */
  charged: number;
}

/** Payload of `POST /voice/transcribe`: recorded speech to write into the message box. */
export interface TranscribePayload {
  /** The recording, base64-encoded, at most 2 MB once decoded. */
  audio: string;
  /** Its media type as the recorder made it, e.g. `audio/webm;codecs=opus`. */
  mimeType: string;
  /** The language spoken, when known (e.g. `en`). */
  language?: string;
}

/** Answer of `POST /voice/transcribe`. */
export interface Transcription {
  /** What was said. */
  text: string;
}
