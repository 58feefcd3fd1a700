import type { EndpointInput, EndpointOutput, EndpointPath, HttpMethod } from './endpoints';
import type { ChatSendPayload, ChatStreamEvent } from './types/chat';
import type { StreamParseError } from './errors/stream-parse-error';

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  /** Where the API lives, e.g. `/api` or `https://mates.example/api`. */
  baseUrl: string;
  /** The `fetch` to use; default `globalThis.fetch`. Tests inject a fake. */
  fetch?: typeof globalThis.fetch;
  /** The session token for the `token` header; empty or absent when anonymous. */
  getToken: () => string | null | undefined;
  /** The language for the `language` header; `en` when absent. */
  getLanguage: () => string | null | undefined;
  /** Called when a call answers 5002, before it rejects with a `SessionExpiredError`. */
  onSessionExpired?: () => void;
  /**
   * Called with the message when a call answers 5007, before it rejects; not for a refusal
   * that says when to ask again (`Retry-After`, see `ApiError.retryAfterMs`): its caller
   * decides whether to wait and ask again or to say so.
   */
  onNotice?: (message: string) => void;
}

/** Options every method takes. There is no timeout: abort with a signal instead. */
export interface CallOptions {
  /** Aborts the call; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The caller handles a refusal (5007) itself, in its own way: `onNotice` is not called for
   * it (the call still rejects with the {@link ApiError}). For calls a screen makes on its own
   * to learn what it may show, whose refusal the user did not ask to hear about.
   */
  quiet?: boolean;
}

/** A query value: arrays are sent comma-separated; `undefined` and `null` are left out. */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

/** Options of the low-level {@link ApiClient.request}. */
export interface RequestOptions extends CallOptions {
  /** Sent as the query string. */
  query?: Record<string, QueryValue>;
  /** Sent as a JSON body. */
  body?: unknown;
}

/** Callbacks and options of `client.girl.chatSend`. */
export interface ChatSendOptions extends CallOptions {
  /** Called with each event of the streamed reply, in order. */
  onData: (event: ChatStreamEvent) => void;
  /** Called once when the stream ends (`[DONE]` or the end of the body). */
  onDone?: () => void;
  /** Called for a malformed line, which is then skipped. */
  onError?: (error: StreamParseError) => void;
}

type CamelJoin<S extends string> = S extends `${infer Head}/${infer Tail}`
  ? `${Head}${Capitalize<CamelJoin<Tail>>}`
  : S;

/** The group of a path: its first segment (`/user/verify/status` → `user`). */
export type GroupOf<P extends string> = P extends `/${infer Group}/${string}` ? Group : never;

/** The method name of a path: the rest, in camelCase (`/user/verify/status` → `verifyStatus`). */
export type MethodNameOf<P extends string> = P extends `/${string}/${infer Rest}`
  ? CamelJoin<Rest>
  : never;

/** A method of the client for one path: input first (if any), then {@link CallOptions}. */
export type EndpointMethod<P extends EndpointPath> = [EndpointInput<P>] extends [void]
  ? (options?: CallOptions) => Promise<EndpointOutput<P>>
  : void extends EndpointInput<P>
    ? (input?: Exclude<EndpointInput<P>, void>, options?: CallOptions) => Promise<EndpointOutput<P>>
    : (input: EndpointInput<P>, options?: CallOptions) => Promise<EndpointOutput<P>>;

/** `client.girl.chatSend`: streams a reply, resolving when the stream ends. */
export type ChatSendMethod = (payload: ChatSendPayload, options: ChatSendOptions) => Promise<void>;

/** The group names of the client: `mate`, `room`, `user`, `girl`, … */
export type ApiGroup = GroupOf<EndpointPath>;

/** The methods of one group. */
export type ApiGroupMethods<G extends ApiGroup> = {
  readonly [
    P in EndpointPath as GroupOf<P> extends G ? MethodNameOf<P> : never
  ]: P extends '/girl/chat/send' ? ChatSendMethod : EndpointMethod<P>;
};

/** The Mates API client: one method per call of docs/product.md, grouped by first path segment. */
export type ApiClient = { readonly [G in ApiGroup]: ApiGroupMethods<G> } & {
  /** Calls any path; resolves to the envelope's `d` with the same error handling. */
  readonly request: <T = unknown>(
    method: HttpMethod,
    path: string,
    options?: RequestOptions,
  ) => Promise<T>;
  /**
   * Fetches a file the server links to (a `/api/…` address it handed out, e.g. a data export's
   * `downloadUrl`) with the session's `token` and `language` headers: resolves to the answer,
   * whose body is not read yet; a refusal's envelope is handled as every call's (5002 signs
   * out), and any other failure is an {@link ApiError} with the HTTP status.
   */
  readonly download: (url: string, options?: CallOptions) => Promise<Response>;
};
