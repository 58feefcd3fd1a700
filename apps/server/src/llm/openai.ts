import { createParser } from 'eventsource-parser';
import {
  ProviderError,
  type ChatTurn,
  type GenerateOptions,
  type GenerationResult,
  type LanguageModel,
} from './language-model';

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
  fetch: typeof globalThis.fetch;
}

interface CompletionChunk {
  choices?: {
    delta?: { content?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

// The detail (status, body) is for the log; people are told only what kind of failure it was.
function refusal(status: number, body: string): ProviderError {
  const detail = `The model provider answered ${status}: ${body.slice(0, 500)}`;
  return new ProviderError(detail, status === 429 ? 'busy' : 'failed', { status });
}

/** Aborts when `signal` does, or when {@link IdleTimer.arm} was not called again in time. */
function idleTimer(signal: AbortSignal) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let armedFor = 0;
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
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
 * a {@link ProviderError}.
 */
export function createOpenAiModel(options: OpenAiModelOptions): LanguageModel {
  const countTokens = (text: string) => Math.ceil(text.length / 4);
  const connectTimeoutMs = options.connectTimeoutMs ?? 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const request = (turns: ChatTurn[], generateOptions: GenerateOptions, signal: AbortSignal) =>
    options.fetch(`${options.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        messages: turns,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: generateOptions.maxTokens,
        temperature: generateOptions.temperature ?? 0.8,
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
    });

  return {
    contextSize: options.contextSize,
    countTokens,
    unavailableReason: () => null,
    describe: () => `OpenAI-compatible endpoint ${options.baseUrl} (${options.model})`,
    close: async () => {},
    async generate(turns, generateOptions, onText): Promise<GenerationResult> {
      const timer = idleTimer(generateOptions.signal);
      const state: StreamState = {
        produced: '',
        finished: false,
        finishReason: 'stop',
        usage: null,
      };
      const stopped = (): GenerationResult => ({
        finishReason: 'stop',
        promptTokens: 0,
        completionTokens: countTokens(state.produced),
      });
      try {
        timer.arm(connectTimeoutMs);
        let response: Response;
        try {
          response = await request(turns, generateOptions, timer.signal);
        } catch (error) {
          if (generateOptions.signal.aborted) return stopped();
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
        if (!response.ok || !response.body)
          throw refusal(response.status, await response.text().catch(() => ''));
        const type = response.headers.get('content-type') ?? '';
        if (type.includes('application/json')) {
          readCompletion(await response.text(), state, onText);
        } else if (type.includes('text/event-stream')) {
          await readStream(response.body, state, onText, () => timer.arm(idleTimeoutMs));
        } else {
          const body = await response.text().catch(() => '');
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
  if (choice?.finish_reason) state.finished = true;
  if (choice?.finish_reason === 'length') state.finishReason = 'length';
  if (chunk.usage) state.usage = chunk.usage;
}

function parseChunk(data: string): CompletionChunk {
  try {
    return JSON.parse(data) as CompletionChunk;
  } catch {
    throw new ProviderError(
      `The model provider sent something that is not JSON: ${data.slice(0, 300)}`,
      'failed',
    );
  }
}

/** A non-streamed `chat.completion`: the whole reply at once. */
function readCompletion(body: string, state: StreamState, onText: (text: string) => void) {
  readChunk(parseChunk(body), state, onText);
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  state: StreamState,
  onText: (text: string) => void,
  onActivity: () => void,
) {
  let failure: unknown = null;
  const parser = createParser({
    onEvent(event) {
      if (failure) return;
      if (event.data === '[DONE]') {
        state.finished = true;
        return;
      }
      try {
        readChunk(parseChunk(event.data), state, onText);
      } catch (error) {
        failure = error;
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    onActivity();
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (failure) {
      await reader.cancel().catch(() => {});
      throw failure;
    }
  }
}
