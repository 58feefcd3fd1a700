import type { Server } from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import { serve, type ServerType } from '@hono/node-server';
import type { Config } from './config';
import { openDatabase } from './db/open-database';
import { migrateOnStart } from './db/migrate-on-start';
import { createMailer } from './mail/mailer';
import { createRateLimits } from './accounts/rate-limits';
import { seedIfEmpty } from './seed/seed';
import { mediaOf } from './media/media-of';
import { applyPackages } from './payments/packages-file';
import { createApp } from './app';
import { createLanguageModel } from './llm/create-model';
import { createChatService, ServerStopping } from './chat/chat-service';
import type { Deps } from './http/context';
import { recoverAbandonedReplies } from './chat/recover-replies';
import { messageIndexer } from './chat/message-indexer';
import { recoverUnqueuedPictures } from './images/picture-job-service';
import { createImageEngine } from './images/create-engine';
import { createSpeechEngine } from './voice/create-speech';
import { createJobQueue } from './jobs/create-job-queue';
import { createTranscriptionEngine } from './voice/create-transcription';
import type { Logger } from './logging/logger';
import { createMetrics } from './metrics/metrics';
import { instrumentModel } from './metrics/instrument-model';
import { watchServer } from './metrics/watch-server';
import { metricsApp } from './http/metrics-route';
import { redisRoomLocks } from './chat/room-locks';
import { redisStopRequests } from './chat/stop-requests';
import { finishPrivacyLeftovers } from './privacy/privacy-leftovers';
import { removeExpiredExports } from './privacy/data-export-service';
import { hasOwnerWordsIndex } from './chat/message-search-repository';
import { attachCalls, callHubOf } from './voice/call-socket';

/**
 * How old a reply or picture left unfinished must be before it counts as abandoned where no
 * lock tells whether a live server still works on it: pictures (the moment between charging one
 * and queueing its job), and replies on PostgreSQL without Redis (the rooms' locks are each
 * server's own). At least this, and longer than a provider may take to send its first word.
 */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

/** How often a running server looks for what a killed one left (at most; see `sweepEveryMs`). */
const SWEEP_EVERY_MS = 60_000;

/** A running server. */
export interface RunningServer {
  url: string;
  /** Where Prometheus scrapes, when the metrics have a port of their own (`METRICS_PORT`). */
  metricsUrl: string | null;
  deps: Deps;
  close: () => Promise<void>;
}

/** Knobs of {@link startServer} that tests turn; production uses the defaults. */
export interface StartOptions {
  /** Job queue polling (ms) and, on PostgreSQL, how often dead runs are expired (s). */
  jobs?: { pollMs?: number; maintenanceSeconds?: number };
  /** How often to look for replies and pictures a killed server left (ms). */
  sweepEveryMs?: number;
}

/**
 * Opens the database, migrates it as `MIGRATE` allows (refusing, with an
 * `UnmigratedDatabase` error, to start on one left behind), seeds it, starts the job
 * queue, and listens on `config.port`.
 */
export async function startServer(
  config: Config,
  log: Logger,
  options: StartOptions = {},
): Promise<RunningServer> {
  const { db, dialect, pool, close } = openDatabase(config, log);
  try {
    const ran = await migrateOnStart(db as never, dialect, config.migrate);
    if (ran.length)
      log.info(`migrated the database: ${ran.length} migration(s), the last ${ran.at(-1)}`);
  } catch (error) {
    await close();
    throw error;
  }
  const seeded = await seedIfEmpty(db, { media: mediaOf(config) });
  if (seeded) log.info(`seeded ${seeded.mates} mates by ${seeded.creators} creators`);
  if (config.packages) {
    await applyPackages(db, config.packages);
    log.info(
      `packages on sale: ${config.packages.map((entry) => entry.id).join(', ')} (PACKAGES_FILE)`,
    );
  }
  // Lets SQLite refresh the statistics its planner uses, where they are stale (cheap).
  if (dialect === 'sqlite') await sql`pragma optimize`.execute(db);
  else if (!(await hasOwnerWordsIndex(db)))
    log.warn(
      'message search: PostgreSQL had no btree_gin extension when the database was migrated, so a search may read the matches of every person (slow with many people); docs/operations.md says how to add the missing index',
    );
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: config.mailOutboxDir,
    from: config.mailFrom,
    log,
  });
  const metrics = createMetrics();
  const model = instrumentModel(createLanguageModel(config.llm, log), metrics);
  log.info(`language model: ${model.describe()}`);
  const images = createImageEngine(config.image, globalThis.fetch, log);
  log.info(`pictures: ${images ? images.describe() : 'not set up (IMAGE_PROVIDER)'}`);
  const transcription = createTranscriptionEngine(config.transcription, globalThis.fetch, log);
  log.info(
    `speech to text: ${transcription ? transcription.describe() : 'not set up (TRANSCRIBE_PROVIDER)'}`,
  );
  const speech = createSpeechEngine(config.speech, config.speechRemote, globalThis.fetch, log);
  log.info(`speech: ${speech ? speech.describe() : 'not set up (SPEECH_PROVIDER=none)'}`);
  log.info(
    `payments: ${config.payments ? `Stripe${config.payments.apiUrl ? ` at ${config.payments.apiUrl}` : ''}` : 'not set up (STRIPE_SECRET_KEY)'}`,
  );
  const jobs = createJobQueue({
    db,
    dialect,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log,
    onJobFailed: (kind) => metrics.jobFailures.inc({ kind }),
    ...options.jobs,
  });
  await jobs.start();
  log.info(`jobs: ${jobs.describe()}`);
  // With Redis, every server shares the rate limits, the rooms' locks and stop requests.
  // ioredis is loaded only when it is used.
  const redis = config.redis
    ? await (await import('./redis/connect-redis')).connectRedis(config.redis, log)
    : null;
  log.info(
    `shared state: ${redis ? `Redis at ${redis.describe()} (rate limits, room locks, stop requests)` : 'in this process (set REDIS_URL to run several servers)'}`,
  );
  const deps: Deps = {
    db,
    dialect,
    config,
    mailer,
    limits: createRateLimits(1, redis ?? undefined),
    chat: createChatService(
      model,
      redis && config.redis
        ? {
            locks: redisRoomLocks(redis, { ttlMs: config.redis.roomLockTtlMs, log }),
            stops: redisStopRequests(redis, log),
          }
        : {},
    ),
    images,
    speech,
    transcription,
    fetch: globalThis.fetch,
    jobs,
    log,
    metrics,
    ...(redis && { redis }),
  };
  const sweep = leftoversSweep(deps, options.sweepEveryMs);
  await sweep.start();
  const indexer = messageIndexer(deps);
  indexer.start();
  watchServer(metrics, { chat: deps.chat, db, database: { dialect, pool } });
  const app = createApp(deps);
  await finishPrivacyLeftovers(deps);
  const server = await listen(app.fetch, config.port);
  attachCalls(server as Server, deps);
  const metricsServer =
    config.metrics?.port === undefined
      ? null
      : await listen(metricsApp(metrics, config.metrics.path).fetch, config.metrics.port);
  const port = portOf(server, config.port);
  const metricsUrl = metricsServer
    ? `http://localhost:${portOf(metricsServer, config.metrics!.port!)}${config.metrics!.path}`
    : null;
  if (config.metrics)
    log.info(`metrics: ${metricsUrl ?? `${config.metrics.path} on the main port`} (Prometheus)`);
  log.info(
    `database: ${dialect === 'sqlite' ? path.join(config.dataDir, 'mates.db') : 'PostgreSQL'}; mail: ${mailer.describe()}; files: ${mediaOf(config).describe()}`,
  );
  return {
    url: `http://localhost:${port}`,
    metricsUrl,
    deps,
    close: async () => {
      // Stop taking requests; end the replies being written (each is saved as far as it got
      // and its reader told why); wait for them up to SHUTDOWN_TIMEOUT, then cut what is left.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Voice calls end first, told why (`server`): each saves its reply as far as it was said.
      const callsEnded = callHubOf(deps).closeAll('server');
      deps.chat.stopAll(new ServerStopping());
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.shutdownTimeoutMs);
      });
      await Promise.race([Promise.all([deps.chat.whenIdle(), callsEnded]), deadline]);
      clearTimeout(timer);
      await sweep.stop();
      await indexer.stop();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      if (metricsServer) {
        const metricsClosed = new Promise<void>((resolve) => metricsServer.close(() => resolve()));
        (metricsServer as { closeAllConnections?: () => void }).closeAllConnections?.();
        await metricsClosed;
      }
      await jobs.stop();
      await redis?.close();
      await model.close();
      await speech?.close();
      await close();
    },
  };
}

/**
 * How large a request's head (its line and headers) may be: room for `/room/editMessage`, a GET
 * whose text (up to 8,000 characters, as a sent message) travels in the query string, where a
 * Chinese character takes 9 bytes once encoded (72,000 bytes in all). Node's default, 16 KiB,
 * refused such an edit with a bare 431. A proxy in front needs as much (docs/deploy.md).
 */
export const MAX_REQUEST_HEAD_BYTES = 128 * 1024;

/** Listens on `port` of every address with `fetch`; resolves once listening. */
function listen(fetch: (request: Request) => Response | Promise<Response>, port: number) {
  return new Promise<ServerType>((resolve) => {
    const instance = serve(
      {
        fetch: fetch as never,
        port,
        hostname: '0.0.0.0',
        serverOptions: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
      },
      () => resolve(instance),
    );
  });
}

/** The port a server listens on (the one asked for, unless that was 0). */
function portOf(server: ServerType, asked: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : asked;
}

/**
 * Gives back what a killed process charged for and left unfinished: empty replies (their chat)
 * and, at start, pictures never queued (their coins). `start` looks once, then again every `everyMs` (by
 * default as often as a dead server's room locks expire, at most every minute), so that a
 * server killed mid-reply on a shared PostgreSQL database is cleared up by the servers still
 * running, not only by the next start. A look that fails (the database or Redis away, even at
 * start) is logged and made again next time: it never stops the server.
 */
function leftoversSweep(deps: Deps, everyMs?: number) {
  const { db, dialect, config, log, chat } = deps;
  // One SQLite file has one server, and without Redis each server's room locks are its own: a
  // reply another server on the same PostgreSQL database writes cannot be seen there, so only
  // the long-abandoned ones. With Redis, a room's lock tells.
  const mayBeElsewhere = dialect === 'postgres' && !config.redis;
  const llm = config.llm;
  const abandonedAfter = Math.max(
    ABANDONED_AFTER_MS,
    2 * (llm.connectTimeoutMs + llm.idleTimeoutMs),
  );
  const once = async (starting: boolean) => {
    const now = Date.now();
    if (starting) {
      // Pictures: a dead server's window is the moment between charging one and queueing its
      // job, so the start's look is enough (a look at every sweep scanned the messages table).
      // At the start of the only server on a SQLite file, no picture is being queued.
      const asked = dialect === 'sqlite' ? now : now - ABANDONED_AFTER_MS;
      const unqueued = await recoverUnqueuedPictures(db, new Date(asked));
      if (unqueued)
        log.warn(`failed ${unqueued} picture(s) a stop left unqueued; their coins are back`);
      // Nobody makes a voice clip at the start of the only server on a SQLite file: a claim to
      // make one is a stopped process's, and would keep its listeners waiting for it to run out.
      if (dialect === 'sqlite')
        await db
          .updateTable('speech_clips')
          .set({ making_until: null })
          .where('making_until', 'is not', null)
          .execute();
    }
    const recovered = await recoverAbandonedReplies(
      db,
      new Date(now - (mayBeElsewhere ? abandonedAfter : 0)),
      // Nothing holds a room at the start of the only server on a SQLite file.
      starting && dialect === 'sqlite' ? undefined : chat.isBusy,
    );
    if (recovered)
      log.info(
        `gave back ${recovered} chat(s) of replies left unfinished by a ${starting ? 'stop' : 'server that died'}`,
      );
    // Data zips past their time go while the server runs, as their mail promises, whether or
    // not their owner looks again (the start removes those of a server that was stopped).
    if (!starting) {
      const removed = await removeExpiredExports({ db, media: mediaOf(config) });
      if (removed) log.info(`removed ${removed} expired data export(s)`);
    }
  };
  const interval =
    everyMs ??
    (config.redis
      ? Math.min(SWEEP_EVERY_MS, Math.max(1000, config.redis.roomLockTtlMs))
      : SWEEP_EVERY_MS);
  const look = (starting: boolean) =>
    once(starting).catch((error: unknown) =>
      log.warn(
        { err: error },
        `could not look for what a stopped server left unfinished; looking again in ${interval / 1000} s`,
      ),
    );
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  return {
    /** Looks now (resolving when done), then every `interval`. */
    start: async () => {
      await look(true);
      timer = setInterval(() => {
        running ??= look(false).finally(() => (running = null));
      }, interval);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
