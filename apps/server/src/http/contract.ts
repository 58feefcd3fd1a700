import type { Context, Hono } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { z } from 'zod';
import type {
  EndpointInput,
  EndpointOutput,
  EndpointPath,
  Endpoints,
  HttpMethod,
} from '@mates/api-client';
import type { ApiEnv } from './context';
import { ok } from './envelope';
import { SharedAnswer, sendShared } from './shared-answer';
import { body, query } from './validate';
import type { SharedCallHandler, SharedCalls } from './shared-calls';
import type { UserTable } from '../db/schema';

/** The input of a path without the `void` that marks it optional. */
type InputOf<P extends EndpointPath> = Exclude<EndpointInput<P>, void>;

/** Whether a path takes input at all. */
type TakesInput<P extends EndpointPath> = [EndpointInput<P>] extends [void] ? false : true;

/** The paths of one method under one prefix that take (or do not take) input. */
type PathOf<M extends HttpMethod, Prefix extends string, WithInput extends boolean> = {
  [P in EndpointPath]: Endpoints[P]['method'] extends M
    ? P extends `${Prefix}/${string}`
      ? TakesInput<P> extends WithInput
        ? P
        : never
      : never
    : never;
}[EndpointPath];

// Every key of every member: `keyof` of a union keeps only the keys all members share.
type KeysOf<T> = T extends unknown ? keyof T : never;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Why `S` does not fit the input of `P`, or `never` when it does:
 * - what the schema hands the handler must be an `EndpointInput<P>` (a wrongly typed or
 *   missing required field fails);
 * - it names exactly the fields of `EndpointInput<P>` (an optional field missing on either
 *   side fails);
 * - a JSON body schema accepts every payload the api-client may send (a field the client
 *   made optional, or a literal it added, fails). Query schemas read strings, so for them
 *   the first two checks are what can be checked.
 */
type InputMismatch<P extends EndpointPath, S extends z.ZodType> = [z.output<S>] extends [InputOf<P>]
  ? Same<KeysOf<z.output<S>>, KeysOf<InputOf<P>>> extends true
    ? Endpoints[P]['method'] extends 'POST'
      ? [InputOf<P>] extends [z.input<S>]
        ? never
        : 'the schema refuses payloads that EndpointInput allows'
      : never
    : 'the schema names other fields than EndpointInput'
  : 'the schema parses to values that EndpointInput does not allow';

/** `unknown` when `S` fits the input of `P`; otherwise a type no schema has, naming why. */
type FitsInput<P extends EndpointPath, S extends z.ZodType> = [InputMismatch<P, S>] extends [never]
  ? unknown
  : { readonly contractMismatch: InputMismatch<P, S> };

/**
 * What a handler of `P` returns: the envelope's `d` as `EndpointOutput<P>` declares it, or
 * for a call whose output is `void` (the streamed chat reply) the response it wrote itself.
 */
export type Answer<P extends EndpointPath> = [EndpointOutput<P>] extends [void]
  ? Response
  : EndpointOutput<P>;

/**
 * Reads the call's input with its schema; bad input throws a 4000 envelope error. A handler
 * calls it where it wants the input checked: after the session and rate-limit checks that
 * must answer first (an anonymous caller learns 5002 whatever it sent).
 */
export type ReadInput<S extends z.ZodType> = () => Promise<z.output<S>>;

/** What a handler of `P` may return: its answer, or one shared by many requests, serialised once. */
type Returned<P extends EndpointPath> = Answer<P> | SharedAnswer<EndpointOutput<P>>;

/** A handler of a call with input: the context and the input's reader in, the answer out. */
type InputHandler<P extends EndpointPath, S extends z.ZodType> = (
  c: Context<ApiEnv>,
  read: ReadInput<S>,
) => Returned<P> | Promise<Returned<P>>;

/** A handler of a call without input. */
type PlainHandler<P extends EndpointPath> = (
  c: Context<ApiEnv>,
) => Returned<P> | Promise<Returned<P>>;

/** Registers one method's calls; the path is the api-client's, whole. */
interface Register<M extends HttpMethod, Prefix extends string> {
  <P extends PathOf<M, Prefix, true>, S extends z.ZodType>(
    path: P,
    schema: S & FitsInput<P, S>,
    handler: InputHandler<P, S>,
  ): void;
  <P extends PathOf<M, Prefix, false>>(path: P, handler: PlainHandler<P>): void;
}

/**
 * A call whose answer depends on nothing but its input and who asks (`null`: no one signed
 * in): it sees no context, so it can be answered ahead of the middlewares (`shared-calls.ts`).
 */
type SharedHandler<P extends EndpointPath, Input> = (
  input: Input,
  viewer: UserTable | null,
) => Promise<Returned<P>>;

/** Registers GET calls of {@link SharedHandler}s. */
interface RegisterShared<Prefix extends string> {
  <P extends PathOf<'GET', Prefix, true>, S extends z.ZodType>(
    path: P,
    schema: S & FitsInput<P, S>,
    handler: SharedHandler<P, z.output<S>>,
  ): void;
  <P extends PathOf<'GET', Prefix, false>>(path: P, handler: SharedHandler<P, undefined>): void;
}

/** The calls of one prefix, each checked against the api-client's `Endpoints`. */
export interface ContractRoutes<Prefix extends string> {
  /** A GET call: its query is parsed with the schema. */
  readonly get: Register<'GET', Prefix>;
  /** A POST call: its JSON body is parsed with the schema. */
  readonly post: Register<'POST', Prefix>;
  /**
   * A GET call whose answer depends on nothing but its query and who asks (a listing):
   * answered ahead of the middlewares by `shared`, and by an ordinary route that answers its
   * refusals and failures (without running it again) and HEAD requests. Without `shared`,
   * only the ordinary route.
   */
  readonly shared: RegisterShared<Prefix>;
}

type AnyHandler = (c: Context<ApiEnv>, read: () => Promise<unknown>) => unknown;

/**
 * Registers calls of the api-client's contract on `routes`, which the app mounts at
 * `prefix`. The schema of each call must fit `EndpointInput<P>` and the handler must return
 * `EndpointOutput<P>`, so that a change on either side breaks the build where it drifted.
 */
export function contract<Prefix extends string>(
  routes: Hono<ApiEnv>,
  prefix: Prefix,
  shared?: SharedCalls,
): ContractRoutes<Prefix> {
  const register =
    (method: HttpMethod) =>
    (path: string, ...rest: [z.ZodType, AnyHandler] | [AnyHandler]) => {
      const [schema, handler] = rest.length === 2 ? rest : [null, rest[0]];
      const read = method === 'GET' ? query : body;
      routes.on(method, path.slice(prefix.length), async (c) => {
        const answer = await handler(c, async () => (schema ? read(c, schema) : undefined));
        if (answer instanceof SharedAnswer) return sendShared(c, answer);
        // The marker of a streamed answer may come from Node's own Response class rather than
        // the adapter's, depending on which module loaded first: compare it by identity too.
        return answer === RESPONSE_ALREADY_SENT || answer instanceof Response
          ? (answer as Response)
          : ok(c, answer);
      });
    };
  const registerShared = (
    path: string,
    ...rest: [z.ZodType, SharedCallHandler] | [SharedCallHandler]
  ) => {
    const [schema, handler] = rest.length === 2 ? rest : [null, rest[0]];
    // A call that failed ahead of the middlewares is not run again: its failure is answered.
    const ordinary: AnyHandler = async (c, read) => {
      const input = await read();
      const tried = c.get('sharedTry');
      if (tried) throw tried.failure;
      return handler(input, c.get('user'));
    };
    if (schema) register('GET')(path, schema, ordinary);
    else register('GET')(path, ordinary);
    shared?.add(path, schema, handler);
  };
  return {
    get: register('GET') as Register<'GET', Prefix>,
    post: register('POST') as Register<'POST', Prefix>,
    shared: registerShared as RegisterShared<Prefix>,
  };
}
