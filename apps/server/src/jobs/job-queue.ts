import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Where a job is in its life. `succeeded`, `failed` and `cancelled` are final. */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** What {@link JobQueue.status} answers about one job. */
export interface JobStatus<Result = unknown> {
  id: string;
  kind: string;
  state: JobState;
  /** 0..1 as the handler last reported it; 1 once succeeded. */
  progress: number;
  /** The handler's return value once `succeeded`, else `null`. */
  result: Result | null;
  /** Why it failed (`failed`), else `null`. */
  error: string | null;
  /** How many times a handler started on it (2 after a run interrupted by a stop). */
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What a handler gets for one job. */
export interface JobContext<Payload> {
  id: string;
  kind: string;
  payload: Payload;
  /**
   * Fires when the job is cancelled, runs past its `timeoutMs`, or the server stops; the
   * reason is an `Error` saying which. A handler passes it on to its fetches.
   */
  signal: AbortSignal;
  /** 0 for the first run; 1 when an earlier run was interrupted (the process died or stopped). */
  attempt: number;
  /** Records progress (0..1) where {@link JobQueue.status} reads it. */
  progress: (value: number) => Promise<void>;
}

/** Runs one job; what it returns (JSON-serialisable) becomes the job's `result`. */
export type JobHandler<Payload, Result> = (job: JobContext<Payload>) => Promise<Result>;

/** A job that ended `failed`, as the failure hook gets it. */
export interface FailedJob<Payload> {
  id: string;
  kind: string;
  payload: Payload;
  error: string;
}

/** How one kind of job runs. */
export interface JobKindOptions<Payload> {
  /** Handlers of this kind running at once in each server process (default 1). */
  concurrency?: number;
  /** A run longer than this is aborted and the job fails (default 5 minutes). */
  timeoutMs?: number;
  /**
   * Called exactly once when a job of this kind ends `failed` (its handler threw, timed out,
   * or it was interrupted twice), inside the transaction that marks it failed: writes through
   * `trx` (giving coins back) commit together with the state, or not at all. Not called for
   * cancelled jobs: {@link JobQueue.cancel} says whether it cancelled, and its caller acts.
   */
  onFinallyFailed?: (job: FailedJob<Payload>, trx: Kysely<Database>) => Promise<void>;
}

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /**
   * The job's id, chosen by the caller (a UUID) so that it can be written with what the job is
   * for, in that record's transaction, before the job exists; default a new UUID.
   */
  id?: string;
  /**
   * At most one queued or running job of this kind per key: enqueuing again while one is
   * queued or running answers that job's id instead of adding another.
   */
  singletonKey?: string;
}

/**
 * Durable background jobs, run by a queue library (plainjob on SQLite, pg-boss on PostgreSQL)
 * and recorded in the `jobs` table, where any server process can read them by id. A job
 * survives a restart: a run interrupted by a stop or crash runs again once (after the
 * library's expiry), and a second interruption fails it (with the failure hook).
 */
export interface JobQueue {
  /** Registers the handler of a kind; after {@link start} its workers start at once. */
  define<Payload, Result>(
    kind: string,
    handler: JobHandler<Payload, Result>,
    options?: JobKindOptions<Payload>,
  ): void;
  /**
   * Stores a job (state `queued`) and hands it to the library; answers its id. Throws when
   * the library refuses it (the row then ends `failed` without the hook: the caller, which
   * got the error, gives back what it charged). Needs {@link start} first.
   */
  enqueue<Payload>(kind: string, payload: Payload, options?: EnqueueOptions): Promise<string>;
  /** The job's state, progress, result or error; `null` when no job has this id. */
  status<Result = unknown>(jobId: string): Promise<JobStatus<Result> | null>;
  /**
   * Cancels a queued or running job (a running handler's signal fires, in whichever process
   * runs it); `true` when it was cancelled, `false` when it had already ended or is unknown.
   * `onCancelled` runs in the transaction that cancels it (a refund): should it fail, the job
   * is not cancelled, and the call throws.
   */
  cancel(
    jobId: string,
    options?: { onCancelled?: (trx: Kysely<Database>) => Promise<void> },
  ): Promise<boolean>;
  /** Records a running job's progress (0..1, clamped); the handler's `progress` calls this. */
  progress(jobId: string, value: number): Promise<void>;
  /** Prepares the library's storage and starts the workers of the defined kinds. */
  start(): Promise<void>;
  /**
   * Takes no more jobs, lets running ones finish for up to `graceMs` (default 10 s), then
   * aborts the rest; those run again after the next start.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** One line for the start log: which library, where. */
  describe(): string;
}
