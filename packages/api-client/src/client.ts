import { ENDPOINTS, ENDPOINT_PATHS, type EndpointPath, type HttpMethod } from './endpoints';
import type {
  ApiClient,
  ApiClientOptions,
  CallOptions,
  ChatSendOptions,
  RequestOptions,
} from './client-types';
import type { ChatSendPayload, ChatStreamEvent } from './types/chat';
import { ENVELOPE_CODES } from './types/envelope';
import { ApiError } from './errors/api-error';
import { NetworkError } from './errors/network-error';
import { SessionExpiredError } from './errors/session-expired-error';
import { toQueryString } from './query-string';
import { methodKeyOf } from './method-name';

const DEFAULT_LANGUAGE = 'en';
const CHAT_SEND_PATH = '/girl/chat/send';

interface Call {
  method: HttpMethod;
  path: string;
}

/**
 * Creates a client for the Mates API. Every request carries the `token` and `language`
 * headers; every answer is an envelope handled as docs/product.md (errors) says.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  async function send(call: Call, init: RequestOptions & { accept: string }): Promise<Response> {
    const headers: Record<string, string> = {
      accept: init.accept,
      token: options.getToken() ?? '',
      language: options.getLanguage() || DEFAULT_LANGUAGE,
    };
    const hasBody = init.body !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    const url = `${baseUrl}${call.path}${toQueryString(init.query)}`;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    try {
      return await fetchImpl(url, {
        method: call.method,
        headers,
        body: hasBody ? JSON.stringify(init.body) : undefined,
        signal: init.signal,
      });
    } catch (error) {
      throw transportError(error, call, init.signal);
    }
  }

  async function readEnvelope(response: Response, call: Call, signal?: AbortSignal, quiet = false) {
    const text = await readText(response, call, signal);
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch (cause) {
      throw new ApiError('server error', { ...call, code: 0, status: response.status, cause });
    }
    if (!isEnvelope(envelope)) {
      throw new ApiError('server error', { ...call, code: 0, status: response.status });
    }
    return unwrap(envelope, call, response.status, retryAfterMs(response), quiet);
  }

  function unwrap(
    envelope: { c: number; m?: unknown; d?: unknown },
    call: Call,
    status: number,
    retryAfter: number | null,
    quiet: boolean,
  ) {
    const message = typeof envelope.m === 'string' ? envelope.m : '';
    // A refusal may say why in one word (`d.reason`); the data of an error is otherwise null.
    const data = envelope.d as { reason?: unknown } | null | undefined;
    const reason = typeof data?.reason === 'string' ? data.reason : null;
    switch (envelope.c) {
      case ENVELOPE_CODES.ok:
        return envelope.d ?? null;
      case ENVELOPE_CODES.sessionExpired:
        options.onSessionExpired?.();
        throw new SessionExpiredError({ ...call, status });
      case ENVELOPE_CODES.notice: {
        const notice = message || 'something error';
        // A refusal that passes by itself is the caller's to handle (ask again, say so), and so
        // is one the caller asked to hear of alone.
        if (retryAfter === null && !quiet) options.onNotice?.(notice);
        throw new ApiError(notice, {
          ...call,
          code: envelope.c,
          status,
          retryAfterMs: retryAfter,
          reason,
        });
      }
      default:
        throw new ApiError(message || 'server error', {
          ...call,
          code: envelope.c,
          status,
          reason,
        });
    }
  }

  async function request<T>(method: HttpMethod, path: string, init: RequestOptions = {}) {
    const call = { method, path };
    const response = await send(call, { ...init, accept: 'application/json' });
    return (await readEnvelope(response, call, init.signal, init.quiet)) as T;
  }

  async function chatSend(payload: ChatSendPayload, init: ChatSendOptions): Promise<void> {
    const call: Call = { method: 'POST', path: CHAT_SEND_PATH };
    const { signal, onData, onDone, onError, quiet } = init;
    // The parser loads with the first send (a page that never chats, the web app's first
    // screen, does not carry it), before the request goes: one that cannot load (the network
    // gone, the old chunk gone with a new version) fails the send before anything is sent, so
    // sending again makes no second message.
    const { createDataLineParser } = await import('./stream/data-line-parser').catch(
      (error: unknown) => {
        throw transportError(error, call, signal);
      },
    );
    const response = await send(call, { body: payload, signal, accept: 'text/event-stream' });
    // Refusals (no chats left, expired session, bad input) come as a plain envelope.
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await readEnvelope(response, call, signal, quiet);
      onDone?.();
      return;
    }
    // Data already buffered when the caller aborts must not reach them afterwards.
    const parser = createDataLineParser<ChatStreamEvent>({
      onData: (event) => {
        if (!signal?.aborted) onData(event);
      },
      onDone: () => {
        if (!signal?.aborted) onDone?.();
      },
      onError,
    });
    if (!response.body) {
      parser.feed(await readText(response, call, signal));
      parser.end();
      return;
    }
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
        signal?.throwIfAborted();
      }
    } catch (error) {
      // The read already failed; a failing cancel has nothing to add to that error.
      await reader.cancel().catch(() => {});
      throw transportError(error, call, signal);
    }
    parser.end();
  }

  /** `Retry-After` in milliseconds (it counts seconds), or `null` without a usable one. */
  function retryAfterMs(response: Response): number | null {
    const header = response.headers.get('retry-after')?.trim();
    const seconds = header ? Number(header) : Number.NaN;
    return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
  }

  async function readText(response: Response, call: Call, signal?: AbortSignal) {
    try {
      return await response.text();
    } catch (error) {
      throw transportError(error, call, signal);
    }
  }

  function endpointMethod(path: EndpointPath) {
    const { method, hasInput } = ENDPOINTS[path];
    if (!hasInput) {
      return (init: CallOptions = {}) =>
        request(method, path, { signal: init.signal, quiet: init.quiet });
    }
    return (input: unknown, init: CallOptions = {}) =>
      request(method, path, {
        signal: init.signal,
        quiet: init.quiet,
        ...(method === 'GET' ? { query: input as RequestOptions['query'] } : { body: input }),
      });
  }

  async function download(url: string, init: CallOptions = {}): Promise<Response> {
    // A link the server handed out (`/api/…`): on the API's host when the base names one.
    const target = /^https?:\/\//i.test(baseUrl) ? new URL(url, baseUrl).toString() : url;
    const call: Call = { method: 'GET', path: url.split('?')[0]! };
    const headers = {
      accept: '*/*',
      token: options.getToken() ?? '',
      language: options.getLanguage() || DEFAULT_LANGUAGE,
    };
    const fetchImpl = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetchImpl(target, { method: 'GET', headers, signal: init.signal });
    } catch (error) {
      throw transportError(error, call, init.signal);
    }
    // A refusal (signed out: 5002) is an envelope; the file is anything else.
    if ((response.headers.get('content-type') ?? '').includes('application/json')) {
      await readEnvelope(response, call, init.signal, init.quiet);
      throw new ApiError('server error', { ...call, code: 0, status: response.status });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ApiError('server error', { ...call, code: 0, status: response.status });
    }
    return response;
  }

  const groups: Record<string, Record<string, unknown>> = {};
  for (const path of ENDPOINT_PATHS) {
    const [group, name] = methodKeyOf(path);
    (groups[group] ??= {})[name] = path === CHAT_SEND_PATH ? chatSend : endpointMethod(path);
  }
  return { ...groups, request, download } as unknown as ApiClient;
}

function isEnvelope(value: unknown): value is { c: number; m?: unknown; d?: unknown } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { c?: unknown }).c === 'number'
  );
}

function transportError(error: unknown, call: Call, signal?: AbortSignal): unknown {
  // An abort is the caller's own doing: hand back the signal's reason, not a network fault.
  if (signal?.aborted) return signal.reason;
  if (error instanceof Error && error.name === 'AbortError') return error;
  return new NetworkError({ ...call, cause: error });
}
