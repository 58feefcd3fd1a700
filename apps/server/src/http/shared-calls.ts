import type { MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Envelope } from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { resolveSession } from '../accounts/sessions';
import { CODE } from './envelope';
import { SharedAnswer, sharedReply } from './shared-answer';
import { query } from './validate';
import { requestIdOf, type AnsweredRequest } from './request-log';

declare module 'hono' {
  interface ContextVariableMap {
    /** What the shared path tried before it passed a failed call on (see {@link SharedTry}). */
    sharedTry: SharedTry | undefined;
  }
}

/**
 * A shared call that failed ahead of the middlewares, handed to its ordinary route so that
 * nothing is tried twice: the session as it was read (`undefined` when reading it failed), the
 * failure, and when the request arrived (`performance.now()`), so that its log line and
 * histogram count the time the failed try took.
 */
export interface SharedTry {
  viewer: UserTable | null | undefined;
  failure: unknown;
  started: number;
}

/**
 * A call whose answer depends on nothing but its query and who asks (the catalog's listings):
 * it sees no context and no body, so it can be answered ahead of the middlewares.
 */
export type SharedCallHandler = (input: unknown, viewer: UserTable | null) => Promise<unknown>;

/** The calls answered ahead of the middlewares, and the middleware that answers them. */
export interface SharedCalls {
  /** Answers `path` (an API path, as the api-client names it) with `handler` ahead of the rest. */
  add(path: string, schema: z.ZodType | null, handler: SharedCallHandler): void;
  /** Comes first in the app: answers the calls added, and passes every other request on. */
  readonly middleware: MiddlewareHandler;
}

/**
 * Answers the catalog's most asked calls ahead of the app's middlewares (#20). A cached
 * listing costs little to compute; what it cost was the dressing of each request: a context
 * for every middleware, a Fetch `Headers` object filled and read again, a child logger. Here
 * one function does for these calls what the middlewares do for all:
 * - the request id, as `requestIds` gives it;
 * - the session, read with the same `resolveSession` as the API's middleware;
 * - the query, read with the call's schema;
 * - the security headers `securityHeaders` sends (`headers`, read from it once);
 * - the answer, a shared one with its ETag and `304 Not Modified` as `sendShared` sends it;
 * - the log line and the histogram, through the request log's own `answered`.
 *
 * Only successes are answered here. A refusal (bad input, a mate the caller may not see) or a
 * failure (the database down) passes the request on to the ordinary route of the same call
 * with what was tried ({@link SharedTry}, `c.get('sharedTry')`): the API's middleware takes the
 * session read here (or throws its failure), and the route throws the call's failure instead
 * of running it again. So the route answers with its error envelope, in the caller's
 * language, and logs it, and in an outage the database is waited for once, not twice. A HEAD
 * request goes there too, and is answered afresh. (A GET's body, if one is sent, is never
 * read: @hono/node-server reads none, and the body limits pass GETs by.)
 */
export function createSharedCalls(options: {
  /** Where the API is mounted (`/api`). */
  mount: string;
  db: Kysely<Database>;
  /** The security headers of every answer, as `securityHeaderRecord` reads them. */
  headers: Promise<Record<string, string>>;
  answered: (answered: AnsweredRequest) => void;
}): SharedCalls {
  const calls = new Map<string, { schema: z.ZodType | null; handler: SharedCallHandler }>();
  let security: Record<string, string> | undefined;
  void options.headers.then((headers) => (security = headers));
  return {
    add(path, schema, handler) {
      calls.set(options.mount + path, { schema, handler });
    },
    async middleware(c, next) {
      const call = c.req.method === 'GET' ? calls.get(c.req.path) : undefined;
      if (!call || !security) return next();
      const started = performance.now();
      let viewer: UserTable | null | undefined;
      let answer: unknown;
      try {
        const token = c.req.header('token');
        viewer = token ? await resolveSession(options.db, token) : null;
        answer = await call.handler(call.schema ? query(c, call.schema) : undefined, viewer);
      } catch (failure) {
        // Answered, and logged, by the call's ordinary route, without trying again: see above.
        c.set('sharedTry', { viewer, failure, started });
        return next();
      }
      const reqId = requestIdOf(c.req.header('x-request-id'));
      let response: Response;
      if (answer instanceof SharedAnswer) {
        const reply = sharedReply(answer, c.req.header('if-none-match'));
        response = new Response(reply.body, {
          status: reply.status,
          headers: { ...security, 'x-request-id': reqId, ...reply.headers },
        });
      } else {
        const envelope: Envelope<unknown> = { c: CODE.ok, m: '', d: answer };
        response = new Response(JSON.stringify(envelope), {
          headers: { ...security, 'x-request-id': reqId, 'content-type': 'application/json' },
        });
      }
      options.answered({
        reqId,
        userId: viewer?.id,
        method: 'GET',
        route: c.req.path,
        path: c.req.path,
        status: response.status,
        seconds: (performance.now() - started) / 1000,
      });
      return response;
    },
  };
}
