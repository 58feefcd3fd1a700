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
  fetch: typeof globalThis.fetch;
}

interface CompletionChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

function refusal(status: number, body: string): ProviderError {
  if (status === 429)
    return new ProviderError(
      'The model provider is busy (rate limited). Please try again in a moment.',
      status,
    );
  if (status === 401 || status === 403)
    return new ProviderError('The model provider refused our key. Check LLM_API_KEY.', status);
  const detail = body.slice(0, 200);
  return new ProviderError(
    `The model provider answered ${status}${detail ? `: ${detail}` : ''}.`,
    status,
  );
}

/**
 * Any OpenAI-compatible `/chat/completions` endpoint, streamed: OpenAI, vLLM, Ollama, the
 * llama.cpp server, OpenRouter. Token counts are estimated (no tokenizer for remote models)
 * unless the server reports usage.
 */
export function createOpenAiModel(options: OpenAiModelOptions): LanguageModel {
  const countTokens = (text: string) => Math.ceil(text.length / 4);
  return {
    contextSize: options.contextSize,
    countTokens,
    unavailableReason: () => null,
    describe: () => `OpenAI-compatible endpoint ${options.baseUrl} (${options.model})`,
    close: async () => {},
    async generate(
      turns: ChatTurn[],
      generateOptions: GenerateOptions,
      onText,
    ): Promise<GenerationResult> {
      let response: Response;
      try {
        response = await options.fetch(`${options.baseUrl}/chat/completions`, {
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
                    json_schema: {
                      name: 'answer',
                      schema: generateOptions.jsonSchema,
                      strict: true,
                    },
                  },
                }
              : {}),
          }),
          signal: generateOptions.signal,
        });
      } catch (error) {
        if (generateOptions.signal.aborted)
          return { finishReason: 'stop', promptTokens: 0, completionTokens: 0 };
        throw new ProviderError('The model provider cannot be reached.', undefined, {
          cause: error,
        });
      }
      if (!response.ok || !response.body)
        throw refusal(response.status, await response.text().catch(() => ''));

      let finishReason: GenerationResult['finishReason'] = 'stop';
      let usage: CompletionChunk['usage'] = null;
      let produced = '';
      let failure: ProviderError | null = null;
      const parser = createParser({
        onEvent(event) {
          if (event.data === '[DONE]') return;
          let chunk: CompletionChunk;
          try {
            chunk = JSON.parse(event.data) as CompletionChunk;
          } catch {
            return;
          }
          if (chunk.error)
            failure = new ProviderError(
              `The model provider failed: ${chunk.error.message ?? 'unknown error'}.`,
            );
          const choice = chunk.choices?.[0];
          const text = choice?.delta?.content;
          if (text) {
            produced += text;
            onText(text);
          }
          if (choice?.finish_reason === 'length') finishReason = 'length';
          if (chunk.usage) usage = chunk.usage;
        },
      });
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
          if (failure) throw failure;
        }
      } catch (error) {
        if (generateOptions.signal.aborted)
          return { finishReason: 'stop', promptTokens: 0, completionTokens: countTokens(produced) };
        if (error instanceof ProviderError) throw error;
        throw new ProviderError('The model provider stopped answering mid-reply.', undefined, {
          cause: error,
        });
      }
      const reported = usage as CompletionChunk['usage'];
      return {
        finishReason,
        promptTokens:
          reported?.prompt_tokens ??
          turns.reduce((sum, turn) => sum + countTokens(turn.content), 0),
        completionTokens: reported?.completion_tokens ?? countTokens(produced),
      };
    },
  };
}
