import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { callerAddress } from './http/caller-address';
import { CODE, EnvelopeError, fail } from './http/envelope';
import { DomainError } from './domain/errors';
import type { ApiEnv, Deps } from './http/context';
import { inLanguage, textsFor } from './i18n/texts';
import { resolveSession } from './accounts/sessions';
import { lazyChild } from './logging/logger';
import { shareSessionCache } from './accounts/session-cache';
import { accountRoutes, headerLanguage } from './accounts/account-routes';
import { mateRoutes } from './catalog/mate-routes';
import { userCatalogRoutes } from './catalog/user-catalog-routes';
import { tagRoutes } from './catalog/tag-routes';
import { cardRoutes } from './cards/card-routes';
import { subscriptionRoutes } from './accounts/subscription-routes';
import { ledgerRoutes } from './accounts/ledger-routes';
import { passwordResetRoutes } from './accounts/password-reset-routes';
import { paymentRoutes } from './payments/payment-routes';
import { roomRoutes } from './chat/room-routes';
import { personaGreetings } from './chat/room-service';
import { sendRoutes } from './chat/send-routes';
import { memoryRoutes } from './chat/memory-routes';
import { groupRoutes } from './chat/group-routes';
import { createMemoryKeeper } from './chat/memory-keeper';
import { defineMemoryJob } from './chat/memory-writer';
import { SENDS_STARTING_AT_ONCE, sendStarts } from './chat/send-starts';
import { generationRoutes } from './chat/generation-routes';
import { saveMateRoutes } from './catalog/save-mate-routes';
import { studioRoutes } from './catalog/studio-routes';
import { creatorRoutes } from './catalog/creator-routes';
import { moderationRoutes } from './moderation/moderation-routes';
import { privacyRoutes } from './privacy/privacy-routes';
import { serveMedia, serveWebApp } from './http/web-app';
import { mediaOf } from './media/media-of';
import type { StudioDeps } from './catalog/catalog-deps';
import { isStorageUnavailable } from './media/media-store';
import { isOutOfSpace } from './domain/out-of-space';
import { publicConfigRoute } from './http/public-config-route';
import { bodyLimits } from './http/body-limits';
import { healthRoutes } from './http/health-routes';
import { securityHeaderRecord, securityHeaders } from './http/security-headers';
import { createSharedCalls } from './http/shared-calls';
import { imageModelRoutes } from './images/model-routes';
import { pictureRoutes } from './images/picture-routes';
import { transcribeRoutes } from './voice/transcribe-routes';
import { voiceRoutes } from './voice/voice-routes';
import { callRoutes } from './voice/call-routes';
import { createCallHub, keepCallHub } from './voice/call-socket';
import { answerLog, requestIds, requestLog } from './http/request-log';
import { mainPortMetrics } from './http/metrics-route';

/** The whole HTTP application: the API under `/api`, the web app everywhere else. */
export function createApp(deps: Deps): Hono {
  const answered = answerLog({ log: deps.log, metrics: deps.metrics, quiet: quietPaths(deps) });
  const shared = createSharedCalls({
    mount: '/api',
    db: deps.db,
    headers: securityHeaderRecord(deps.config),
    answered,
  });
  // Several servers on one database hear each other's forgotten sessions (logouts, passwords).
  if (deps.redis) shareSessionCache(deps.db, deps.redis, deps.log);
  const api = new Hono<ApiEnv>();
  // Before the session is read: that is part of a send's start.
  api.use('/girl/chat/send', sendStarts(deps.dialect === 'sqlite' ? SENDS_STARTING_AT_ONCE : null));
  api.use(async (c, next) => {
    const token = c.req.header('token') ?? '';
    c.set('token', token);
    c.set('language', headerLanguage(c.req.header('language')));
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // Worked out when a call asks (a rate limit): most calls never do.
    let ip: string | undefined;
    c.set('ip', () => (ip ??= callerAddress(incoming, deps.config.trustProxy)));
    // A shared call that failed ahead of the middlewares read the session already, or failed to.
    const tried = c.get('sharedTry');
    if (tried && tried.viewer === undefined) throw tried.failure;
    const user = tried ? (tried.viewer ?? null) : await resolveSession(deps.db, token);
    c.set('user', user);
    if (user) {
      c.set('userId', user.id);
      // A child of the server's logger rather than of the request's (pino redacts each child's
      // fields as it makes it: two cost three times what one does), made only if it writes.
      c.set('log', lazyChild(deps.log, { reqId: c.get('requestId'), userId: user.id }));
    }
    await next();
  });
  // The creation studio's and the cards' calls work on the same database and portrait store.
  const studio: StudioDeps = { db: deps.db, dialect: deps.dialect, media: mediaOf(deps.config) };
  // A persona renamed or deleted, or a new nickname, readdresses the greetings of the chats
  // not yet begun.
  api.route(
    '/user',
    accountRoutes({
      ...deps,
      greetings: (userId, personaId) => personaGreetings(deps, userId, personaId),
    }),
  );
  api.route('/user', userCatalogRoutes(deps));
  api.route('/user', ledgerRoutes(deps));
  api.route('/user', passwordResetRoutes(deps));
  api.route('/user', privacyRoutes(deps));
  api.route('/mate', mateRoutes(deps, shared));
  api.route('/mate', cardRoutes(deps, studio));
  api.route('/extra', tagRoutes(deps));
  api.route('/extra', publicConfigRoute(deps));
  api.route('/subscription', subscriptionRoutes(deps));
  const payments = paymentRoutes(deps);
  api.route('/subscription', payments.subscription);
  api.route('/stripe', payments.stripe);
  // What mates remember: told of every reply's prompt, it writes memories in the background.
  const memory = createMemoryKeeper(deps);
  defineMemoryJob({
    db: deps.db,
    jobs: deps.jobs,
    log: deps.log,
    model: deps.chat.model,
    onSettled: memory.settled,
    wanted: memory.wanted,
  });
  api.route('/room', roomRoutes(deps));
  api.route('/room', memoryRoutes(deps, memory));
  api.route('/room', groupRoutes(deps));
  api.route('/girl', sendRoutes({ ...deps, memory }));
  const generation = generationRoutes(deps);
  api.route('/girl', generation.girl);
  api.route('/mate', generation.mate);
  api.route('/mate', saveMateRoutes(deps));
  api.route('/mate', studioRoutes(deps, studio));
  api.route('/mate', creatorRoutes(deps));
  api.route('/admin', moderationRoutes(deps));
  const images = imageModelRoutes(deps);
  api.route('/aigc', images.aigc);
  api.route('/room', images.room);
  api.route('/room', pictureRoutes(deps));
  api.route('/voice', transcribeRoutes(deps));
  const voice = voiceRoutes(deps);
  api.route('/voice', voice.voice);
  api.route('/speech', voice.speech);
  // Voice calls: the ticket here, the socket on the HTTP server's upgrade (`attachCalls`).
  api.route('/call', callRoutes({ ...deps, memory }));
  keepCallHub(deps, createCallHub({ ...deps, memory }));
  api.notFound((c) =>
    fail(c, CODE.notFound, `There is no API call ${c.req.method} ${c.req.path}.`),
  );
  api.onError((error, c) => {
    // A service's refusal: its kind is the envelope's code, its sentence in the caller's language.
    if (error instanceof DomainError)
      return fail(
        c,
        CODE[error.refusal],
        error.sentence(c.get('language')),
        error.options.retryAfterSeconds,
        error.options.reason,
      );
    if (error instanceof EnvelopeError)
      return fail(c, error.code, inLanguage(c.get('language'), error.message));
    // A full disk (under the database or the stored files) is a fault outside the process too:
    // said as what it is, before the store's "cannot be reached" that may wrap it.
    if (isOutOfSpace(error)) {
      c.get('log').error(
        { err: error },
        `out of storage space in ${c.req.method} ${c.req.path}: ${error.message}`,
      );
      return fail(c, CODE.notice, textsFor(c.get('language'))('notices.server.full'));
    }
    // The bucket or the disk of stored files failed us: say so, and keep serving.
    if (isStorageUnavailable(error)) {
      c.get('log').warn(
        { err: error },
        `storage in ${c.req.method} ${c.req.path}: ${error.message}`,
      );
      return fail(c, CODE.notice, textsFor(c.get('language'))('notices.server.storage'));
    }
    c.get('log').error({ err: error }, `error in ${c.req.method} ${c.req.path}: ${error.message}`);
    return fail(c, CODE.internal, textsFor(c.get('language'))('notices.server.internal'));
  });

  const app = new Hono();
  // First: the catalog's listings, answered ahead of the middlewares below (which they do alike).
  app.use(shared.middleware);
  // Then: every answer, refusals of the middlewares below included, has an id and a log line.
  app.use(requestIds());
  app.use(requestLog({ log: deps.log, answered }));
  app.onError((error, c) => {
    c.get('log').error({ err: error }, `error in ${c.req.method} ${c.req.path}: ${error.message}`);
    return c.text('Internal Server Error', 500);
  });
  // Before the web app, whose fallback would answer the path with its page.
  app.route('/', mainPortMetrics(deps.metrics, deps.config.metrics));
  app.use(securityHeaders(deps.config));
  // Before anything reads a body: an oversized one is refused while it is still arriving.
  app.use(bodyLimits('/api'));
  // Before the API's session lookup: a probe reads no session and needs none.
  app.route('/', healthRoutes(deps));
  app.route('/api', api);
  // A sub-app's notFound is not consulted once mounted; answer unknown API paths here.
  app.all('/api/*', (c) =>
    fail(c, CODE.notFound, `There is no API call ${c.req.method} ${c.req.path}.`),
  );
  serveMedia(app, mediaOf(deps.config), deps.log);
  serveWebApp(app, deps.config.webDistDir);
  return app;
}

/** Paths whose requests log at debug level: probes and the metrics scrape, many a minute. */
function quietPaths(deps: Deps): ReadonlySet<string> {
  const paths = ['/api/health', '/healthz', '/api/ready', '/readyz'];
  if (deps.config.metrics) paths.push(deps.config.metrics.path);
  return new Set(paths);
}
