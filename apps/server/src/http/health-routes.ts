import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Deps } from './context';
import { pendingMigrations } from '../db/migrate';
import { MODEL_LOADING } from '../llm/embedded';
import { mediaOf } from '../media/media-of';

const modelState = (reason: string | null): Readiness['model'] =>
  reason === null ? 'ready' : reason === MODEL_LOADING ? 'loading' : 'unavailable';

/** How long a readiness check waits for the database, or the stored files, before it calls them down. */
const CHECK_TIMEOUT_MS = 2000;

/** `work`, or a rejection once {@link CHECK_TIMEOUT_MS} has passed without its answer. */
const inTime = <T>(work: Promise<T>) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no answer in time')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

/** What `GET /api/ready` answers: each part, and whether the server can take traffic. */
export interface Readiness {
  status: 'ready' | 'not ready';
  database: 'up' | 'down';
  migrations: 'applied' | { pending: string[] } | 'unknown';
  /** The language model: ready to answer, still loading, or not available (chat refuses). */
  model: 'ready' | 'loading' | 'unavailable';
  jobs: string;
  /**
   * Where rate limits, room locks and stop requests live: `this process` without Redis, else
   * whether Redis answers now (while it is `down`, new replies are refused; see operations).
   */
  sharedState: 'this process' | 'up' | 'down';
  /**
   * Where portraits, pictures and voice are kept (the `DATA_DIR` folder or the S3 bucket):
   * whether it takes a file, or answers, now.
   */
  storage: 'up' | 'down';
}

/**
 * Probes for a process manager or a load balancer, answered as plain JSON (never the web app):
 * `GET /api/health` (and `/healthz`) says the process is alive; `GET /api/ready` (and `/readyz`)
 * says whether it can serve: 200 when the database answers and every migration is applied,
 * 503 otherwise. The model's, Redis's and the stored files' states are reported; the calls
 * that need them refuse politely while they are away, and everything else still works, so none
 * takes the server out of rotation (every server shares them: all would leave it at once). A
 * store that goes down is logged once, with why, and once more when it is back.
 */
export function healthRoutes(deps: Deps): Hono {
  const routes = new Hono();
  const started = Date.now();
  const media = mediaOf(deps.config);
  let storageWas: Readiness['storage'] = 'up';
  const storage = async (): Promise<Readiness['storage']> => {
    let state: Readiness['storage'] = 'up';
    let why: unknown;
    try {
      await inTime(media.check());
    } catch (error) {
      state = 'down';
      why = error;
    }
    if (state !== storageWas) {
      if (state === 'down')
        deps.log.warn({ err: why }, `stored files cannot be reached (${media.describe()})`);
      else deps.log.info(`stored files can be reached again (${media.describe()})`);
    }
    storageWas = state;
    return state;
  };
  const health = () => ({
    status: 'alive',
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
  });
  const ready = async (): Promise<Readiness> => {
    let database: Readiness['database'] = 'down';
    let migrations: Readiness['migrations'] = 'unknown';
    const stored = storage();
    try {
      await inTime(sql`select 1`.execute(deps.db));
      database = 'up';
      const pending = await pendingMigrations(deps.db as never);
      migrations = pending.length ? { pending } : 'applied';
    } catch {
      // Down, or not answering in time: reported, never thrown.
    }
    return {
      status: database === 'up' && migrations === 'applied' ? 'ready' : 'not ready',
      database,
      migrations,
      model: modelState(deps.chat.model.unavailableReason()),
      jobs: deps.jobs.describe(),
      sharedState: !deps.redis
        ? 'this process'
        : deps.redis.client.status === 'ready'
          ? 'up'
          : 'down',
      storage: await stored,
    };
  };
  for (const path of ['/api/health', '/healthz'])
    routes.get(path, (c) => c.json(health(), 200, { 'Cache-Control': 'no-store' }));
  for (const path of ['/api/ready', '/readyz'])
    routes.get(path, async (c) => {
      const answer = await ready();
      return c.json(answer, answer.status === 'ready' ? 200 : 503, { 'Cache-Control': 'no-store' });
    });
  return routes;
}
