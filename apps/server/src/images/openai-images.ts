import type OpenAI from 'openai';
import { openAiClient, openAiSdk } from '../openai-sdk';
import type { EngineOptions } from './automatic1111';
import { ProviderError, isProviderError } from '../domain/provider-error';
import { failureOfStatus } from '../http/engine-calls';
import { checkImage, deadline, type GeneratedImage, type ImageEngine } from './image-engine';

const ENGINE = 'The OpenAI-compatible image endpoint';

/** Error codes OpenAI answers (400) when its content policy refuses a prompt. */
const POLICY_CODES = new Set(['content_policy_violation', 'moderation_blocked']);

/** The images API error as an image {@link ProviderError}; others are left to `explain`. */
function fromApiError(error: unknown): unknown {
  if (error instanceof SyntaxError)
    return new ProviderError(
      `${ENGINE} answered something that is not JSON: ${error.message}`,
      'malformed',
      { cause: error, provider: 'image' },
    );
  if (!(error instanceof openAiSdk().APIError) || error.status === undefined) return error;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const refused =
    error.status === 400 &&
    ((code && POLICY_CODES.has(code)) || /safety system|content policy/i.test(error.message));
  return new ProviderError(
    `${ENGINE} answered ${error.status}${code ? ` (${code})` : ''}: ${error.message.slice(0, 500)}`,
    refused ? 'refused' : failureOfStatus(error.status),
    { status: error.status, cause: error, provider: 'image' },
  );
}

/**
 * Any OpenAI-compatible `/images/generations` endpoint (OpenAI, LocalAI and others), through
 * the official `openai` client with our fetch. It asks for base64 (`b64_json`) and downloads a
 * URL when a server answers one. OpenAI's own moderation stays at its default (`auto`); these
 * endpoints take no negative prompt. The models are `IMAGE_MODEL` (default `gpt-image-1`):
 * `/models` does not say which models draw.
 */
export function createOpenAiImageEngine(options: EngineOptions): ImageEngine {
  const { baseUrl, apiKey, timeoutMs } = options.config;
  const model = options.config.model ?? 'gpt-image-1';
  // The job runner decides about retries; one call is one try within IMAGE_TIMEOUT.
  const client = openAiClient({ baseUrl, apiKey, timeoutMs, fetch: options.fetch });

  return {
    provider: 'openai',
    describe: () => `OpenAI-compatible images ${baseUrl} (${model})`,
    listModels: () => Promise.resolve([{ id: model, name: model }]),
    async generate(request, { signal }): Promise<GeneratedImage[]> {
      const limit = deadline(ENGINE, timeoutMs, signal);
      try {
        const chosen = request.model ?? model;
        let answer: OpenAI.ImagesResponse;
        try {
          answer = await client.images.generate(
            {
              model: chosen,
              prompt: request.prompt,
              n: 1,
              size: `${request.width}x${request.height}`,
              // GPT image models always answer base64 and refuse the parameter.
              ...(chosen.startsWith('gpt-image') ? {} : { response_format: 'b64_json' as const }),
            },
            { signal: limit.signal },
          );
        } catch (error) {
          throw fromApiError(error);
        }
        const first = Array.isArray(answer?.data) ? answer.data[0] : undefined;
        if (first?.b64_json)
          return [await checkImage(ENGINE, Buffer.from(first.b64_json, 'base64'))];
        if (first?.url) {
          const response = await options.fetch(first.url, { signal: limit.signal });
          if (!response.ok)
            throw new ProviderError(
              `${ENGINE} gave an image URL that answered ${response.status}`,
              'malformed',
              { status: response.status, provider: 'image' },
            );
          return [await checkImage(ENGINE, Buffer.from(await response.arrayBuffer()))];
        }
        throw new ProviderError(
          `${ENGINE} answered no image: ${JSON.stringify(answer)?.slice(0, 300)}`,
          'malformed',
          { provider: 'image' },
        );
      } catch (error) {
        // The client wraps a dropped connection; the cause says what happened on the socket.
        const inner =
          error instanceof openAiSdk().APIConnectionError && !isProviderError(error, 'image')
            ? (error.cause ?? error)
            : error;
        throw limit.explain(inner);
      }
    },
  };
}
