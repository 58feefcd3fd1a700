import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database, UserTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import type { Mailer } from '../mail/mailer';
import type { RedisLink } from '../redis/connect-redis';
import type { RateLimits } from '../accounts/rate-limits';
import type { ChatService } from '../chat/chat-service';
import type { ImageEngine } from '../images/image-engine';
import type { JobQueue } from '../jobs/job-queue';
import type { SpeechEngine, TranscriptionEngine } from '../voice/speech-engine';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';
import { sessionExpired } from './envelope';

/** What every route needs, built once at start and passed in. */
export interface Deps {
  db: Kysely<Database>;
  dialect: DialectName;
  config: Config;
  mailer: Mailer;
  limits: RateLimits;
  /** The language model and the replies in progress. */
  chat: ChatService;
  /** The picture engine `IMAGE_PROVIDER` names, or `null` when pictures are not set up. */
  images: ImageEngine | null;
  /** The speech engine `SPEECH_PROVIDER` names, or `null` when voice is not set up. */
  speech: SpeechEngine | null;
  /** Speech to text for `POST /voice/transcribe`, or `null` when none is configured. */
  transcription: TranscriptionEngine | null;
  /** Fetch for calls to Google's JWKS and Discord; tests pass one bound to local doubles. */
  fetch: typeof globalThis.fetch;
  /** Durable background jobs (pictures): pg-boss on PostgreSQL, plainjob on SQLite. */
  jobs: JobQueue;
  /** The server's logger; a request's own (with its id and user) is `c.get('log')`. */
  log: Logger;
  /** This server's Prometheus metrics (a registry of its own). */
  metrics: Metrics;
  /** Redis, when `REDIS_URL` shares rate limits, room locks and stop requests; else absent. */
  redis?: RedisLink;
}

/** Hono environment of the API: the caller (or `null`), their token and language. */
export interface ApiEnv {
  Variables: RequestVariables & {
    user: UserTable | null;
    token: string;
    language: string;
    /** The caller's address as rate limits count it (see `http/caller-address.ts`). */
    ip: () => string;
  };
}

/** What the request log sets on every request (see `http/request-log.ts`). */
export interface RequestVariables {
  /** The request's id: the caller's `X-Request-Id` when it is a plain token, else a new UUID. */
  requestId: string;
  /** The server's logger with this request's id (and, once the session is read, its user). */
  log: Logger;
}

/** The signed-in caller, or a 5002 envelope error when the call needs a session. */
export function requireUser(c: Context<ApiEnv>): UserTable {
  const user = c.get('user');
  if (!user) throw sessionExpired();
  return user;
}

/** The caller's address for rate limits (the socket's, or a trusted proxy's `X-Forwarded-For`). */
export function clientIp(c: Context<ApiEnv>): string {
  return c.get('ip')();
}
