import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { RateLimits } from '../accounts/rate-limits';
import type { Logger } from '../logging/logger';
import { refused } from '../domain/errors';
import type { SpeechEngine, TranscriptionEngine } from './speech-engine';
import type { SpeechStore } from './speech-store';
import type { SpeechLinks } from './speech-links';
import { speechOf } from './speech-clips';

/** Audio being made for the first listener, kept while others wait for the file. */
export interface Making {
  mimeType: string;
  /**
   * The bytes as they come, for the listener that started it; `null` when another server makes
   * the clip (it is served from the store once `done`).
   */
  live: ReadableStream<Uint8Array> | null;
  /** Settles once the file is recorded (`true`) or the clip failed (`false`). */
  done: Promise<boolean>;
}

/** What the voice services work with, built once per server. */
export interface VoiceDeps {
  db: Kysely<Database>;
  /** The server's log; a request's own where the route passes it. */
  log: Logger;
  limits: RateLimits;
  /** The speech engine `SPEECH_PROVIDER` names, or `null` when voice is not set up. */
  speech: SpeechEngine | null;
  /** Speech to text, or `null` when none is configured. */
  transcription: TranscriptionEngine | null;
  /** Where clips and samples are kept (`speech/` of the media store). */
  store: SpeechStore;
  /** Signs and checks the links clips are played from. */
  links: SpeechLinks;
  /** Gold coins a message's clip costs. */
  cost: number;
  /** Clips being made in this process, by id: a second listener waits instead of synthesizing. */
  making: Map<string, Promise<Making>>;
}

/** The voice services' dependencies for a server. */
export function voiceDeps(
  deps: Pick<VoiceDeps, 'db' | 'log' | 'limits' | 'speech' | 'transcription'> & { config: Config },
): VoiceDeps {
  const { store, links } = speechOf(deps.config);
  return {
    db: deps.db,
    log: deps.log,
    limits: deps.limits,
    speech: deps.speech,
    transcription: deps.transcription,
    store,
    links,
    cost: deps.config.speech?.cost ?? 0,
    making: new Map(),
  };
}

/** The speech engine, or a refusal saying that voice is not set up (5007). */
export function readySpeech(deps: Pick<VoiceDeps, 'speech'>): SpeechEngine {
  if (!deps.speech) throw refused('notices.voice.notSetUp');
  return deps.speech;
}
