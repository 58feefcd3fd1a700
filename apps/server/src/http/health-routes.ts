import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Deps } from './context';
import { pendingMigrations } from '../db/migrate';
import { MODEL_LOADING } from '../llm/embedded';

const modelState = (reason: string | null): Readiness['model'] =>
  reason === null ? 'ready' : reason === MODEL_LOADING ? 'loading' : 'unavailable';

/** How long a readiness check waits for the database before it calls it down. */
const DATABASE_TIMEOUT_MS = 2000;

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
}

/**
 * Probes for a process manager or a load balancer, answered as plain JSON (never the web app):
 * `GET /api/health` (and `/healthz`) says the process is alive; `GET /api/ready` (and `/readyz`)
 * says whether it can serve: 200 when the database answers and every migration is applied,
 * 503 otherwise. The model's and Redis's states are reported; chat refuses politely without
 * them, and everything else still works, so neither takes the server out of rotation (with
 * Redis away, every server would leave it at once).
 */
export function healthRoutes(deps: Deps): Hono {
  const routes = new Hono();
  const started = Date.now();
  const health = () => ({
    status: 'alive',
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
  });
  const ready = async (): Promise<Readiness> => {
    let database: Readiness['database'] = 'down';
    let migrations: Readiness['migrations'] = 'unknown';
    try {
      await Promise.race([
        sql`select 1`.execute(deps.db),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), DATABASE_TIMEOUT_MS).unref(),
        ),
      ]);
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
