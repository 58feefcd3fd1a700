import http from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import type { ChatTurn, GenerateOptions, GenerationResult, LanguageModel } from './language-model';
import { ProviderError } from '../domain/provider-error';
import type { Logger } from '../logging/logger';

/** Options of {@link createOpenAiModel}. */
export interface OpenAiModelOptions {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), a vLLM server. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  contextSize: number;
  /** How long to wait for the provider to start answering (default 60 s). */
  connectTimeoutMs?: number;
  /** How long the provider may go silent mid-reply (default 60 s). */
  idleTimeoutMs?: number;
  /** Where malformed lines of a stream, skipped, are told about. */
  log?: Logger;
}

interface CompletionChunk {
  choices?: {
    delta?: { content?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    // OpenAI's prompt caching; llama.cpp's server and vLLM say it the same way.
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
  error?: { message?: string };
}

// The detail (status, body) is for the log; people are told only what kind of failure it was.
function refusal(status: number, body: string): ProviderError {
  const detail = `The model provider answered ${status}: ${body.slice(0, 500)}`;
  return new ProviderError(detail, status === 429 ? 'busy' : 'failed', { status });
}

/** Parameters of a request that some models refuse (OpenAI's reasoning models: o-series, GPT-5). */
type RefusableParameter = 'stop' | 'max_tokens' | 'temperature';

/**
 * The parameter a 400 says the model refuses, by OpenAI's error fields (`param`, and `code`
 * `unsupported_parameter` or `unsupported_value`), when it is one a request can go without:
 * `stop` (the reply then ends by the model's own turn end), `temperature` (the model's own),
 * `max_tokens` (sent as `max_completion_tokens`, which such models take instead).
 */
function refusedParameter(status: number, body: string): RefusableParameter | null {
  if (status !== 400) return null;
  let error: { param?: unknown; code?: unknown } | undefined;
  try {
    error = (JSON.parse(body) as { error?: typeof error } | null)?.error;
  } catch {
    return null;
  }
  if (error?.code !== 'unsupported_parameter' && error?.code !== 'unsupported_value') return null;
  const { param } = error;
  return param === 'stop' || param === 'max_tokens' || param === 'temperature' ? param : null;
}

/** Aborts when `signal` does, or when {@link IdleTimer.arm} was not called again in time. */
function idleTimer(signal: AbortSignal) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let armedFor = 0;
  const onAbort = () => controller.abort(signal.reason);
  // Aborted already: a listener added now would never be called.
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: false,
    arm(ms: number) {
      // Armed again at every piece read: restarting the same timer costs far less than a new one.
      if (timer && armedFor === ms) {
        timer.refresh();
        return;
      }
      clearTimeout(timer);
      armedFor = ms;
      timer = setTimeout(() => {
        this.timedOut = true;
        controller.abort(new Error(`no answer within ${ms} ms`));
      }, ms);
    },
    dispose() {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Any OpenAI-compatible `/chat/completions` endpoint, streamed: OpenAI, vLLM, Ollama, the
 * llama.cpp server, OpenRouter. Token counts are estimated (no tokenizer for remote models)
 * unless the server reports usage. A server that answers with one JSON completion instead of
 * a stream is read too; anything else, or a stream that ends without saying it finished, is
 * a {@link ProviderError}. A line of a stream that is not a chunk is skipped (and logged once
 * per reply with their count): the text around it is kept.
 */
export function createOpenAiModel(options: OpenAiModelOptions): LanguageModel {
  const countTokens = (text: string) => Math.ceil(text.length / 4);
  const connectTimeoutMs = options.connectTimeoutMs ?? 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const endpoint = new URL(`${options.baseUrl}/chat/completions`);
  const agent = keptAlive(endpoint);
  const headers = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  // What this model refused, learned from its answers (see `refusedParameter`).
  const refused = new Set<RefusableParameter>();
  const request = (turns: ChatTurn[], generateOptions: GenerateOptions, signal: AbortSignal) =>
    post(
      endpoint,
      agent,
      headers,
      JSON.stringify({
        model: options.model,
        messages: turns,
        stream: true,
        stream_options: { include_usage: true },
        ...(refused.has('max_tokens')
          ? { max_completion_tokens: generateOptions.maxTokens }
          : { max_tokens: generateOptions.maxTokens }),
        ...(!refused.has('temperature') && { temperature: generateOptions.temperature ?? 0.8 }),
        ...(!refused.has('stop') &&
          generateOptions.stop?.length && { stop: generateOptions.stop.slice(0, 4) }),
        ...(generateOptions.jsonSchema
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: 'answer', schema: generateOptions.jsonSchema, strict: true },
              },
            }
          : {}),
      }),
      signal,
    );
  /** The provider's answer to `turns`, asked again for each parameter the model refuses. */
  const answer = async (
    turns: ChatTurn[],
    generateOptions: GenerateOptions,
    timer: ReturnType<typeof idleTimer>,
  ): Promise<http.IncomingMessage> => {
    for (;;) {
      timer.arm(connectTimeoutMs);
      let response: http.IncomingMessage;
      try {
        response = await request(turns, generateOptions, timer.signal);
      } catch (error) {
        if (timer.timedOut)
          throw new ProviderError(
            `The model provider did not answer within ${connectTimeoutMs} ms.`,
            'timeout',
          );
        throw new ProviderError(
          `The model provider cannot be reached: ${(error as Error).message}`,
          'unreachable',
          { cause: error },
        );
      }
      const status = response.statusCode ?? 0;
      if (status >= 200 && status <= 299) return response;
      const body = await textOf(response).catch(() => '');
      const parameter = refusedParameter(status, body);
      if (!parameter || refused.has(parameter)) throw refusal(status, body);
      refused.add(parameter);
      options.log?.warn(
        `The model ${options.model} refuses "${parameter}": asked again without it, and from now on.`,
      );
    }
  };

  return {
    contextSize: options.contextSize,
    countTokens,
    unavailableReason: () => null,
    describe: () => `OpenAI-compatible endpoint ${options.baseUrl} (${options.model})`,
    close: async () => agent.destroy(),
    async generate(turns, generateOptions, onText): Promise<GenerationResult> {
      const timer = idleTimer(generateOptions.signal);
      const state: StreamState = {
        produced: '',
        finished: false,
        finishReason: 'stop',
        usage: null,
        malformed: 0,
        firstMalformed: '',
      };
      const stopped = (): GenerationResult => ({
        finishReason: 'stop',
        promptTokens: 0,
        completionTokens: countTokens(state.produced),
      });
      try {
        const response = await answer(turns, generateOptions, timer);
        const type = response.headers['content-type'] ?? '';
        timer.arm(idleTimeoutMs);
        if (type.includes('application/json')) {
          readCompletion(await textOf(response), state, onText);
        } else if (type.includes('text/event-stream')) {
          await readStream(response, state, onText, () => timer.arm(idleTimeoutMs));
        } else {
          const body = await textOf(response).catch(() => '');
          throw new ProviderError(
            `The model provider answered ${type || 'no content type'}, not a reply: ${body.slice(0, 300)}`,
            'failed',
          );
        }
      } catch (error) {
        if (generateOptions.signal.aborted) return stopped();
        if (timer.timedOut && !(error instanceof ProviderError && error.failure === 'timeout'))
          throw new ProviderError(
            `The model provider went silent for ${idleTimeoutMs} ms mid-reply.`,
            'timeout',
            { cause: error },
          );
        if (error instanceof ProviderError) throw error;
        throw new ProviderError(
          `The model provider stopped answering mid-reply: ${(error as Error).message}`,
          'cut',
          { cause: error },
        );
      } finally {
        timer.dispose();
        if (state.malformed > 0)
          options.log?.warn(
            `The model provider sent ${state.malformed} malformed line${state.malformed === 1 ? '' : 's'}, skipped: ${state.firstMalformed}`,
          );
      }
      if (!state.finished)
        throw new ProviderError(
          'The model provider ended the stream without finishing the reply (no finish_reason, no [DONE]).',
          'cut',
        );
      return {
        finishReason: state.finishReason,
        promptTokens:
          state.usage?.prompt_tokens ??
          turns.reduce((sum, turn) => sum + countTokens(turn.content), 0),
        completionTokens: state.usage?.completion_tokens ?? countTokens(state.produced),
        ...(typeof state.usage?.prompt_tokens_details?.cached_tokens === 'number' && {
          cachedPromptTokens: state.usage.prompt_tokens_details.cached_tokens,
        }),
      };
    },
  };
}

interface StreamState {
  produced: string;
  /** Whether the provider said the reply is over (a finish_reason or `[DONE]`). */
  finished: boolean;
  finishReason: GenerationResult['finishReason'];
  usage: CompletionChunk['usage'];
  /** How many lines of the stream were not a chunk (not JSON, or not of a chunk's shape). */
  malformed: number;
  /** The first of them, cut short, for the log. */
  firstMalformed: string;
}

function readChunk(chunk: CompletionChunk, state: StreamState, onText: (text: string) => void) {
  if (chunk.error)
    throw new ProviderError(
      `The model provider failed: ${chunk.error.message ?? 'unknown error'}`,
      'failed',
    );
  const choice = chunk.choices?.[0];
  const text = choice?.delta?.content ?? choice?.message?.content;
  if (text) {
    state.produced += text;
    onText(text);
  }
  noteFinish(state, choice?.finish_reason);
  if (chunk.usage) state.usage = chunk.usage;
}

/**
 * Records a chunk's `finish_reason`: the reply is over. A `length` once said stays said: a
 * later chunk (a usage chunk, a skipped line) does not make a cut reply whole.
 */
function noteFinish(state: StreamState, reason: unknown) {
  if (typeof reason !== 'string' || !reason) return;
  state.finished = true;
  if (reason === 'length') state.finishReason = 'length';
}

/** The `finish_reason` of a line skipped for its shape, where it can still be read. */
function finishOfSkipped(data: string): unknown {
  try {
    return (JSON.parse(data) as { choices?: [{ finish_reason?: unknown }?] } | null)?.choices?.[0]
      ?.finish_reason;
  } catch {
    return undefined;
  }
}

/**
 * `data` as a chunk, or `null` when it is not JSON or not of a chunk's shape (checked by hand
 * where the text and the finish are read: this runs for every token).
 */
function chunkOf(data: string): CompletionChunk | null {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof chunk !== 'object' || chunk === null) return null;
  const { choices } = chunk as CompletionChunk;
  if (choices === undefined) return chunk as CompletionChunk;
  if (!Array.isArray(choices)) return null;
  const choice = choices[0] as Record<string, unknown> | undefined;
  if (choice === undefined) return chunk as CompletionChunk;
  if (typeof choice !== 'object' || choice === null) return null;
  for (const part of [choice.delta, choice.message]) {
    if (part === undefined || part === null) continue;
    if (typeof part !== 'object') return null;
    const { content } = part as { content?: unknown };
    if (content !== undefined && content !== null && typeof content !== 'string') return null;
  }
  return chunk as CompletionChunk;
}

/** A non-streamed `chat.completion`: the whole reply at once. */
function readCompletion(body: string, state: StreamState, onText: (text: string) => void) {
  const chunk = chunkOf(body);
  if (!chunk)
    throw new ProviderError(
      `The model provider sent something that is not a completion: ${body.slice(0, 300)}`,
      'failed',
    );
  readChunk(chunk, state, onText);
}

/**
 * Reads an event stream to its end, each piece of text read from the socket at a time: the
 * events in one piece are parsed together, and their text goes to `onText` as one.
 */
function readStream(
  response: http.IncomingMessage,
  state: StreamState,
  onText: (text: string) => void,
  onActivity: () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    let text = '';
    const parser = createParser({
      onEvent(event) {
        if (failure) return;
        if (event.data === '[DONE]') {
          state.finished = true;
          return;
        }
        const chunk = chunkOf(event.data);
        // One bad line (a proxy's page, a chunk cut in two) costs that line, not the reply.
        if (!chunk) {
          if (state.malformed++ === 0) state.firstMalformed = event.data.slice(0, 300);
          // Its text is lost, but not that the provider finished the reply.
          noteFinish(state, finishOfSkipped(event.data));
          return;
        }
        try {
          readChunk(chunk, state, (piece) => (text += piece));
        } catch (error) {
          failure = error;
        }
      },
    });
    response.setEncoding('utf8');
    response.on('data', (piece: string) => {
      onActivity();
      try {
        parser.feed(piece);
        if (text) {
          const read = text;
          text = '';
          onText(read);
        }
      } catch (error) {
        failure ??= error;
      }
      if (failure) {
        reject(failure);
        response.destroy();
      }
    });
    response.once('end', resolve);
    response.once('error', reject);
    // Closed without its end (the request was aborted): nothing else will settle it.
    response.once('close', () => reject(new Error('the connection closed mid-reply')));
  });
}

/** The whole body as text. */
async function textOf(response: http.IncomingMessage): Promise<string> {
  response.setEncoding('utf8');
  let text = '';
  for await (const piece of response) text += piece as string;
  return text;
}

/**
 * Connections to the provider kept open between replies, as many at once as replies (fetch's
 * pool is unlimited too); one left idle for 4 s is closed, as undici closes its own.
 */
function keptAlive(endpoint: URL): http.Agent {
  const options = { keepAlive: true, timeout: 4_000 };
  return endpoint.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
}

/**
 * POSTs `body` with Node's HTTP client, whose answer is a Node stream: reading a reply through
 * fetch's web stream cost several times as much for every token (#20).
 */
function post(
  url: URL,
  agent: http.Agent,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
      },
      resolve,
    );
    request.once('error', reject);
    request.end(body);
  });
}
