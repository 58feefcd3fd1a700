import { setTimeout as sleep } from 'node:timers/promises';
import type { ImageConfig } from '../config';
import { ProviderError } from '../domain/provider-error';
import {
  engineCaller,
  checkImage,
  deadline,
  negativePromptOf,
  readJson,
  seedOf,
  type GeneratedImage,
  type ImageEngine,
  type ImageFailure,
  type ImageModel,
} from './image-engine';
import type { Logger } from '../logging/logger';

/** Options of {@link createAutomatic1111Engine}. */
export interface EngineOptions {
  config: Pick<ImageConfig, 'baseUrl' | 'apiKey' | 'model' | 'timeoutMs'>;
  fetch: typeof globalThis.fetch;
  log: Logger;
  /** How often progress is asked for while a picture is drawn (default 1 s). */
  pollIntervalMs?: number;
}

const ENGINE = 'AUTOMATIC1111';
/** Listing models must not hold a page up for the whole picture time limit. */
const LIST_TIMEOUT_MS = 10_000;

interface SdModel {
  title?: unknown;
  model_name?: unknown;
}

/**
 * AUTOMATIC1111's web UI (and Forge, which keeps its API) started with `--api`:
 * `POST /sdapi/v1/txt2img`, progress from `GET /sdapi/v1/progress` while it runs, models from
 * `GET /sdapi/v1/sd-models`, and `POST /sdapi/v1/interrupt` when cancelled. There is no
 * maintained JavaScript client for it; this is its wire format.
 */
export function createAutomatic1111Engine(options: EngineOptions): ImageEngine {
  const { baseUrl, apiKey, timeoutMs } = options.config;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const call = engineCaller(options.fetch, baseUrl, apiKey);

  async function listModels(signal?: AbortSignal): Promise<ImageModel[]> {
    const limit = deadline(ENGINE, Math.min(timeoutMs, LIST_TIMEOUT_MS), signal);
    try {
      const answer = await readJson(ENGINE, await call('/sdapi/v1/sd-models', limit.signal));
      if (!Array.isArray(answer)) throw malformed('sd-models is not a list', answer);
      return (answer as SdModel[]).flatMap((model) =>
        typeof model?.title === 'string'
          ? [
              {
                id: model.title,
                name: typeof model.model_name === 'string' ? model.model_name : model.title,
              },
            ]
          : [],
      );
    } catch (error) {
      throw limit.explain(error);
    }
  }

  return {
    provider: 'automatic1111',
    describe: () =>
      `AUTOMATIC1111 ${baseUrl}${options.config.model ? ` (${options.config.model})` : ''}`,
    listModels,
    async generate(request, { signal, onProgress }): Promise<GeneratedImage[]> {
      const limit = deadline(ENGINE, timeoutMs, signal);
      let finished = false;
      let reported = 0;
      const done = new AbortController();
      const pollSignal = AbortSignal.any([limit.signal, done.signal]);
      const polling = (async () => {
        while (!pollSignal.aborted) {
          await sleep(pollIntervalMs, undefined, { signal: pollSignal }).catch(() => {});
          if (pollSignal.aborted) return;
          try {
            const answer = (await readJson(
              ENGINE,
              await call('/sdapi/v1/progress?skip_current_image=true', pollSignal),
            )) as { progress?: unknown; state?: { job_count?: unknown } };
            const fraction = answer?.progress;
            // A1111 answers 0 with job_count 0 while nothing runs (ours is still loading).
            if (typeof fraction === 'number' && fraction > reported && fraction <= 1 && !finished) {
              reported = fraction;
              onProgress?.(fraction);
            }
          } catch {
            // Progress is a courtesy: the txt2img call itself says whether the job failed.
          }
        }
      })();
      try {
        const model = request.model ?? options.config.model;
        const answer = (await readJson(
          ENGINE,
          await call('/sdapi/v1/txt2img', limit.signal, {
            prompt: request.prompt,
            negative_prompt: negativePromptOf(request),
            width: request.width,
            height: request.height,
            seed: seedOf(request),
            steps: 25,
            batch_size: 1,
            n_iter: 1,
            send_images: true,
            save_images: false,
            ...(model
              ? {
                  override_settings: { sd_model_checkpoint: model },
                  override_settings_restore_afterwards: true,
                }
              : {}),
          }),
        )) as { images?: unknown };
        const first = Array.isArray(answer?.images) ? answer.images[0] : undefined;
        // Extensions (ControlNet) may append their maps after the picture: the first is ours.
        if (typeof first !== 'string' || !first) throw malformed('no image in the answer', answer);
        return [await checkImage(ENGINE, Buffer.from(first, 'base64'))];
      } catch (error) {
        const explained = limit.explain(error);
        if (explained.failure === 'cancelled' || explained.failure === 'timeout') {
          // Stops the drawing at the engine too; it must not hold the GPU for nobody.
          await call('/sdapi/v1/interrupt', AbortSignal.timeout(5000), {}).then(
            (response) => response.body?.cancel(),
            (interruptError: Error) =>
              options.log.warn(`AUTOMATIC1111 interrupt failed: ${interruptError.message}`),
          );
        }
        throw explained;
      } finally {
        finished = true;
        done.abort();
        await polling;
      }
    },
  };
}

function malformed(what: string, answer: unknown): ProviderError<ImageFailure> {
  return new ProviderError(
    `${ENGINE} answered without what its API promises (${what}): ${JSON.stringify(answer)?.slice(0, 300)}`,
    'malformed',
    { provider: 'image' },
  );
}
