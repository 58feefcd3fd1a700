import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, JobTable } from '../db/schema';
import { isUniqueViolation, now, toJson, type DialectName } from '../db/dialect';
import type {
  EnqueueOptions,
  JobHandler,
  JobKindOptions,
  JobQueue,
  JobState,
  JobStatus,
} from './job-queue';
import type { Logger } from '../logging/logger';

/** Runs of a job interrupted by a stop or crash after which it fails instead of running again. */
export const INTERRUPTED_RUNS_LIMIT = 2;

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;
const DEFAULT_GRACE_MS = 10_000;
/** The library's expiry of a run is the handler's timeout plus this: it only catches dead processes. */
const EXPIRY_MARGIN_S = 5;
const FINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** A run stopped because the server is stopping: the job goes back to the queue. */
class StopInterruption extends Error {
  constructor() {
    super('The server stopped while the job ran.');
  }
}

class Cancelled extends Error {
  constructor() {
    super('The job was cancelled.');
  }
}

class TimedOut extends Error {}

/** One kind as a backend runs it. */
export interface BackendKind {
  concurrency: number;
  /** Seconds after which the library takes a run whose process died as interrupted. */
  expireSeconds: number;
}

/** What a run asks of the library: nothing more, or to hand the job over again after `laterMs`. */
export type RunOutcome = { laterMs: number } | undefined;

/**
 * What a queue library does for {@link RecordedQueue}: dispatch job ids to workers, exactly
 * once, with expiry of runs whose process died. The job's data and state live in `jobs`.
 */
export interface QueueBackend {
  describe(): string;
  open(): Promise<void>;
  /** Hands a job to the library, to be dispatched after `delayMs` (default at once). */
  send(
    kind: string,
    jobId: string,
    kindOptions: BackendKind | undefined,
    delayMs?: number,
  ): Promise<void>;
  /** Starts workers; a run answering `{ laterMs }` is sent again with that delay. */
  work(
    kind: string,
    options: BackendKind,
    run: (jobId: string) => Promise<RunOutcome>,
  ): Promise<void>;
  /** Takes no more jobs (runs in flight go on). */
  stopFetching(): Promise<void>;
  /** Waits for the workers to settle and closes the library's connections. */
  close(): Promise<void>;
}

interface Definition {
  handler: JobHandler<unknown, unknown>;
  options: Required<Pick<JobKindOptions<unknown>, 'concurrency' | 'timeoutMs'>> &
    JobKindOptions<unknown>;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * The {@link JobQueue} on any {@link QueueBackend}: the library dispatches, the `jobs` table
 * records state, progress, result and error for every process to read.
 */
export class RecordedQueue implements JobQueue {
  readonly #db: Kysely<Database>;
  /** JSON columns: text on SQLite, parsed jsonb on PostgreSQL (a string result stays a string). */
  readonly #readJson: (value: unknown) => unknown;
  readonly #backend: QueueBackend;
  readonly #log: Logger;
  readonly #onJobFailed: (kind: string) => void;
  readonly #cancelPollMs: number;
  readonly #definitions = new Map<string, Definition>();
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #started = false;
  #stopping = false;
  #watcher: NodeJS.Timeout | undefined;

  constructor(options: {
    db: Kysely<Database>;
    dialect: DialectName;
    backend: QueueBackend;
    log: Logger;
    /** Called once for each job that ends failed. */
    onJobFailed?: (kind: string) => void;
    /** How often running handlers look for a cancel made by another process (default 500 ms). */
    cancelPollMs?: number;
  }) {
    this.#db = options.db;
    this.#readJson =
      options.dialect === 'sqlite'
        ? (value) => (value === null ? null : JSON.parse(value as string))
        : (value) => value;
    this.#backend = options.backend;
    this.#log = options.log;
    this.#onJobFailed = options.onJobFailed ?? (() => {});
    this.#cancelPollMs = options.cancelPollMs ?? 500;
  }

  describe(): string {
    return this.#backend.describe();
  }

  define<Payload, Result>(
    kind: string,
    handler: JobHandler<Payload, Result>,
    options: JobKindOptions<Payload> = {},
  ): void {
    if (this.#definitions.has(kind)) throw new Error(`Job kind ${kind} is defined twice.`);
    const concurrency = options.concurrency ?? 1;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`Job kind ${kind}: concurrency must be a whole number of at least 1.`);
    }
    if (!(timeoutMs > 0)) throw new Error(`Job kind ${kind}: timeoutMs must be positive.`);
    const definition: Definition = {
      handler: handler as JobHandler<unknown, unknown>,
      options: { ...(options as JobKindOptions<unknown>), concurrency, timeoutMs },
    };
    this.#definitions.set(kind, definition);
    if (this.#started) {
      this.#work(kind, definition).catch((error: unknown) =>
        this.#log.error(`jobs: could not start the ${kind} workers: ${messageOf(error)}`),
      );
    }
  }

  async start(): Promise<void> {
    if (this.#started) return;
    await this.#backend.open();
    this.#started = true;
    for (const [kind, definition] of this.#definitions) await this.#work(kind, definition);
    this.#watcher = setInterval(() => void this.#watchCancels(), this.#cancelPollMs);
    this.#watcher.unref();
  }

  async enqueue<Payload>(
    kind: string,
    payload: Payload,
    options: EnqueueOptions = {},
  ): Promise<string> {
    if (!this.#started) throw new Error('The job queue is not started.');
    const id = options.id ?? randomUUID();
    // A job of the key that ends between the refused insert and the read leaves its place free:
    // the insert is tried again (asking for an export as the last one finished answered 5000).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#db
          .insertInto('jobs')
          .values({
            id,
            kind,
            state: 'queued',
            payload: toJson(payload ?? null),
            progress: 0,
            result: null,
            error: null,
            singleton_key: options.singletonKey ?? null,
            attempts: 0,
            created_at: now(),
            started_at: null,
            finished_at: null,
          })
          .execute();
        break;
      } catch (error) {
        if (options.singletonKey === undefined || !isUniqueViolation(error)) throw error;
        const existing = await this.#db
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('singleton_key', '=', options.singletonKey)
          .where('state', 'in', ['queued', 'running'])
          .executeTakeFirst();
        if (existing) return existing.id;
        if (attempt === 3) throw error;
      }
    }
    try {
      await this.#backend.send(kind, id, this.#backendKind(kind));
    } catch (error) {
      await this.#db
        .updateTable('jobs')
        .set({ state: 'failed', error: 'The job could not be queued.', finished_at: now() })
        .where('id', '=', id)
        .execute();
      this.#onJobFailed(kind);
      throw error;
    }
    return id;
  }

  async status<Result = unknown>(jobId: string): Promise<JobStatus<Result> | null> {
    const row = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst();
    return row ? toStatus<Result>(row, this.#readJson) : null;
  }

  async cancel(
    jobId: string,
    options: { onCancelled?: (trx: Kysely<Database>) => Promise<void> } = {},
  ): Promise<boolean> {
    const cancelled = await this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({ state: 'cancelled', finished_at: now() })
        .where('id', '=', jobId)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (Number(row.numUpdatedRows) === 0) return false;
      await options.onCancelled?.(trx);
      return true;
    });
    if (!cancelled) return false;
    // Here at once; in another process through its watcher. A queued job's dispatch finds
    // its row final and ends without running.
    this.#running.get(jobId)?.controller.abort(new Cancelled());
    return true;
  }

  async progress(jobId: string, value: number): Promise<void> {
    if (!Number.isFinite(value)) return;
    await this.#db
      .updateTable('jobs')
      .set({ progress: Math.min(1, Math.max(0, value)) })
      .where('id', '=', jobId)
      .where('state', '=', 'running')
      .execute();
  }

  async stop(options: { graceMs?: number } = {}): Promise<void> {
    if (!this.#started || this.#stopping) return;
    this.#stopping = true;
    clearInterval(this.#watcher);
    await this.#backend.stopFetching();
    const inFlight = () => [...this.#running.values()].map((run) => run.done);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inFlight()),
      new Promise((resolve) => (timer = setTimeout(resolve, options.graceMs ?? DEFAULT_GRACE_MS))),
    ]);
    clearTimeout(timer);
    for (const run of this.#running.values()) run.controller.abort(new StopInterruption());
    await Promise.allSettled(inFlight());
    await this.#backend.close();
  }

  #backendKind(kind: string): BackendKind | undefined {
    const definition = this.#definitions.get(kind);
    if (!definition) return undefined;
    return {
      concurrency: definition.options.concurrency,
      expireSeconds: Math.ceil(definition.options.timeoutMs / 1000) + EXPIRY_MARGIN_S,
    };
  }

  async #work(kind: string, definition: Definition): Promise<void> {
    await this.#backend.work(kind, this.#backendKind(kind)!, (jobId) =>
      this.#run(definition, jobId),
    );
  }

  /** One run of one job, as the library hands it over. */
  async #run(definition: Definition, jobId: string): Promise<RunOutcome> {
    if (this.#stopping) return { laterMs: 0 };
    const row = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!row || FINAL.has(row.state)) return undefined;
    if (row.state === 'running') {
      // The row says an earlier run holds it. A live run ends (succeeded, failed) within its
      // timeout; until the expiry has passed it may still be alive elsewhere: look again then.
      const expiryMs = definition.options.timeoutMs + EXPIRY_MARGIN_S * 1000;
      // Answering "later" rather than nothing keeps a hand-over in the library: a second
      // hand-over of a run this process holds (plainjob's early requeue) would otherwise end
      // the only one, and a crash after that would leave the row running for ever.
      const since = Date.now() - Date.parse(row.started_at ?? row.created_at);
      if (since < expiryMs || this.#running.has(jobId)) {
        return { laterMs: Math.max(1000, expiryMs - since) };
      }
      if (row.attempts >= INTERRUPTED_RUNS_LIMIT) {
        await this.#fail(definition, row, 'The job was interrupted twice by a server stop.');
        return undefined;
      }
    }
    const attempt = row.attempts;
    const claimed = await this.#db
      .updateTable('jobs')
      .set({ state: 'running', started_at: now(), attempts: attempt + 1 })
      .where('id', '=', jobId)
      .where('state', '=', row.state)
      .where('attempts', '=', attempt)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return undefined;

    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.#running.set(jobId, { controller, done });
    const { timeoutMs } = definition.options;
    const timer = setTimeout(
      () => controller.abort(new TimedOut(`The job ran longer than ${timeoutMs} ms.`)),
      timeoutMs,
    );
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
        once: true,
      });
    });
    aborted.catch(() => {});
    try {
      const result = await Promise.race([
        definition.handler({
          id: jobId,
          kind: row.kind,
          payload: this.#readJson(row.payload),
          signal: controller.signal,
          attempt,
          progress: (value) => this.progress(jobId, value),
        }),
        aborted,
      ]);
      await this.#db
        .updateTable('jobs')
        .set({
          state: 'succeeded',
          progress: 1,
          result: toJson(result ?? null),
          finished_at: now(),
        })
        .where('id', '=', jobId)
        .where('state', '=', 'running')
        .execute();
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof StopInterruption) {
        // Back to the queue for the next start; the interrupted run still counts.
        await this.#db
          .updateTable('jobs')
          .set({ state: 'queued' })
          .where('id', '=', jobId)
          .where('state', '=', 'running')
          .execute();
        return { laterMs: 0 };
      }
      if (!(reason instanceof Cancelled)) await this.#fail(definition, row, messageOf(reason));
    } finally {
      clearTimeout(timer);
      this.#running.delete(jobId);
      settle();
    }
  }

  /** Marks the job failed and runs the kind's hook in the same transaction, once. */
  async #fail(definition: Definition, row: JobTable, error: string): Promise<void> {
    const mark = (db: Kysely<Database>) =>
      db
        .updateTable('jobs')
        .set({ state: 'failed', error, finished_at: now() })
        .where('id', '=', row.id)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
    const hook = definition.options.onFinallyFailed;
    try {
      const failed = await this.#db.transaction().execute(async (trx) => {
        const marked = Number((await mark(trx)).numUpdatedRows) === 1;
        if (hook && marked) {
          await hook(
            { id: row.id, kind: row.kind, payload: this.#readJson(row.payload), error },
            trx,
          );
        }
        return marked;
      });
      if (failed) this.#onJobFailed(row.kind);
    } catch (hookError) {
      this.#log.error(
        `job ${row.id} (${row.kind}): the failure hook failed: ${messageOf(hookError)}`,
      );
      const marked = await mark(this.#db);
      if (Number(marked.numUpdatedRows) === 1) this.#onJobFailed(row.kind);
    }
  }

  /** Aborts local runs whose job another process cancelled. */
  async #watchCancels(): Promise<void> {
    if (this.#running.size === 0) return;
    try {
      const cancelled = await this.#db
        .selectFrom('jobs')
        .select('id')
        .where('id', 'in', [...this.#running.keys()])
        .where('state', '=', 'cancelled')
        .execute();
      for (const { id } of cancelled) this.#running.get(id)?.controller.abort(new Cancelled());
    } catch (error) {
      this.#log.warn(`jobs: could not look for cancelled jobs: ${messageOf(error)}`);
    }
  }
}

function toStatus<Result>(row: JobTable, readJson: (value: unknown) => unknown): JobStatus<Result> {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state as JobState,
    progress: Number(row.progress),
    result: readJson(row.result ?? null) as Result | null,
    error: row.error,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
