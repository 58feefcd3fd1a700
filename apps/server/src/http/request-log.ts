import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { lazyChild, type Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's id (see {@link requestIdOf}). */
    requestId: string;
    /** The server's logger with this request's id (see {@link requestLog}). */
    log: Logger;
    /** The signed-in caller's id, once the API's session lookup found one: for the log line. */
    userId: string;
  }
}

/** The longest `X-Request-Id` taken from a caller; a longer one is replaced by a new id. */
const REQUEST_ID_MAX_LENGTH = 128;

/**
 * A request's id: the caller's `X-Request-Id` when it is a plain token (letters, digits, `_`,
 * `-`, `=`; at most 128 characters), so that one id follows a request through a proxy and here,
 * else a new UUID. Anything else in the header (spaces, quotes, line breaks) never reaches a
 * log line or an answer.
 */
export function requestIdOf(header: string | undefined): string {
  return header && header.length <= REQUEST_ID_MAX_LENGTH && /^[\w\-=]+$/.test(header)
    ? header
    : crypto.randomUUID();
}

/**
 * Gives each request its id ({@link requestIdOf}): sent back in the answer's `X-Request-Id`
 * header, and `c.get('requestId')`.
 */
export function requestIds(): MiddlewareHandler {
  return async (c, next) => {
    const id = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('x-request-id', id);
    await next();
  };
}

/** What {@link answerLog} records of one answered request. */
export interface AnsweredRequest {
  reqId: string;
  userId: string | undefined;
  method: string;
  /** The route pattern that answered, `(none)` when none did. */
  route: string;
  path: string;
  status: number;
  seconds: number;
}

/**
 * Records an answered request: its line in the log and its time in the
 * `http_request_duration_seconds` histogram (see {@link requestLog}, and `shared-calls.ts`,
 * which answers some calls before the middlewares and records them here alike).
 */
export function answerLog(options: {
  log: Logger;
  metrics: Metrics;
  quiet: ReadonlySet<string>;
}): (answered: AnsweredRequest) => void {
  // The line holds only the fields above, never a header, a query or a body, so it skips the
  // redaction every other line goes through: its wildcard paths cost about ten times what
  // writing the line does, more than the rest of a cached catalog call.
  const lines = options.log.child({}, { redact: [] });
  return ({ reqId, userId, method, route, path, status, seconds }) => {
    options.metrics.httpDuration.observe({ method, route, code: String(status) }, seconds);
    const level = status >= 500 ? 'error' : options.quiet.has(path) ? 'debug' : 'info';
    lines[level](
      { reqId, userId, method, route, path, status, ms: Math.round(seconds * 10_000) / 10 },
      `${method} ${path} ${status}`,
    );
  };
}

/**
 * One log line per request, written once it is answered: its id (`reqId`), the user where the
 * session named one (`userId`), method, route pattern, path (never its query string, which
 * may carry a token), status and duration; no header and no body. The same request is timed
 * into the `http_request_duration_seconds` histogram by route pattern (not the raw path, so
 * ids in paths do not make new series) and status code. Handlers log through `c.get('log')`,
 * a child logger that carries the request's id. Requests to the paths in `quiet` (probes, the
 * metrics scrape) log at debug level unless they fail.
 */
export function requestLog(options: {
  log: Logger;
  answered: (answered: AnsweredRequest) => void;
}): MiddlewareHandler {
  return async (c, next) => {
    // From the request's arrival: a shared call that failed first was tried before this.
    const started = c.get('sharedTry')?.started ?? performance.now();
    const reqId = c.get('requestId');
    c.set('log', lazyChild(options.log, { reqId }));
    await next();
    const seconds = (performance.now() - started) / 1000;
    // A chat stream is written straight to Node's response; its status is there.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const status = outgoing?.headersSent ? outgoing.statusCode : c.res.status;
    options.answered({
      reqId,
      userId: c.get('userId'),
      method: c.req.method,
      route: routePath(c) || '(none)',
      path: c.req.path,
      status,
      seconds,
    });
  };
}
