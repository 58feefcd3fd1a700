import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type WebSocket from 'ws';
import template from './comfyui-txt2img.json';
import type { EngineOptions } from './automatic1111';
import { ProviderError } from '../domain/provider-error';
import {
  authHeaders,
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
  type ImageRequest,
} from './image-engine';

const ENGINE = 'ComfyUI';
// ws is required by the first ComfyUI socket rather than imported: servers drawing no
// pictures through ComfyUI never need it.
const require = createRequire(import.meta.url);
const LIST_TIMEOUT_MS = 10_000;

/** A node of a ComfyUI workflow in its API format. */
interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
}

type Workflow = Record<string, WorkflowNode>;

/** The node a link `[id, output]` points at. */
function linked(workflow: Workflow, link: unknown): WorkflowNode | undefined {
  return Array.isArray(link) && typeof link[0] === 'string' ? workflow[link[0]] : undefined;
}

/**
 * The txt2img workflow (`comfyui-txt2img.json`) with the request filled in: the checkpoint,
 * the sampler's seed, the latent's size, and the texts of the encoders linked to the
 * sampler's positive and negative inputs.
 */
export function fillWorkflow(request: ImageRequest, checkpoint: string): Workflow {
  const workflow = structuredClone(template) as Workflow;
  for (const node of Object.values(workflow)) {
    if (node.class_type === 'CheckpointLoaderSimple') node.inputs.ckpt_name = checkpoint;
    if (node.class_type === 'EmptyLatentImage') {
      node.inputs.width = request.width;
      node.inputs.height = request.height;
      node.inputs.batch_size = 1;
    }
    if (node.class_type === 'KSampler') {
      node.inputs.seed = seedOf(request);
      const positive = linked(workflow, node.inputs.positive);
      const negative = linked(workflow, node.inputs.negative);
      if (positive) positive.inputs.text = request.prompt;
      if (negative) negative.inputs.text = negativePromptOf(request);
    }
  }
  return workflow;
}

/** The checkpoint names of `GET /object_info/CheckpointLoaderSimple`, old and new formats. */
function checkpointNames(answer: unknown): string[] | null {
  const spec = (
    answer as {
      CheckpointLoaderSimple?: { input?: { required?: { ckpt_name?: unknown } } };
    } | null
  )?.CheckpointLoaderSimple?.input?.required?.ckpt_name;
  if (!Array.isArray(spec)) return null;
  // Older servers: [[names…], {…}]; newer: ['COMBO', { options: [names…] }].
  const names: unknown = Array.isArray(spec[0])
    ? spec[0]
    : (spec[1] as { options?: unknown } | undefined)?.options;
  return Array.isArray(names) ? names.filter((name) => typeof name === 'string') : null;
}

interface ServerMessage {
  type?: unknown;
  data?: {
    prompt_id?: unknown;
    node?: unknown;
    value?: unknown;
    max?: unknown;
    exception_message?: unknown;
    exception_type?: unknown;
    node_type?: unknown;
  };
}

interface HistoryImage {
  filename?: unknown;
  subfolder?: unknown;
  type?: unknown;
}

/**
 * ComfyUI: the txt2img workflow with the request filled in, `POST /prompt`, progress and the
 * end over its websocket (`/ws?clientId=`), then `GET /history/{id}` and `GET /view`. Models
 * are the checkpoints of `GET /object_info/CheckpointLoaderSimple`. Cancelling interrupts the
 * prompt and takes it off the queue.
 *
 * No client library: `@saintno/comfyui-sdk` brings a terminal UI (ink, React) into the
 * server, `@stable-canvas/comfyui-client` has seven releases and its own reconnecting socket
 * that hides a dropped connection; the wire format is four calls and one socket (`ws`).
 */
export function createComfyUiEngine(options: EngineOptions): ImageEngine {
  const { baseUrl, apiKey, timeoutMs } = options.config;
  const call = engineCaller(options.fetch, baseUrl, apiKey);

  async function listModels(signal?: AbortSignal): Promise<ImageModel[]> {
    const limit = deadline(ENGINE, Math.min(timeoutMs, LIST_TIMEOUT_MS), signal);
    try {
      const answer = await readJson(
        ENGINE,
        await call('/object_info/CheckpointLoaderSimple', limit.signal),
      );
      const names = checkpointNames(answer);
      if (!names) throw malformed('no checkpoint list', answer);
      return names.map((id) => ({ id, name: id.replace(/\.[^./\\]+$/, '') }));
    } catch (error) {
      throw limit.explain(error);
    }
  }

  /** Opens the socket the server reports on; resolves once it is open. */
  function openSocket(clientId: string, signal: AbortSignal): Promise<WebSocket> {
    const url = new URL(`${baseUrl}/ws`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('clientId', clientId);
    return new Promise((resolve, reject) => {
      const WebSocketClient = require('ws') as typeof WebSocket;
      const socket = new WebSocketClient(url, { headers: authHeaders(apiKey) });
      const onAbort = () => {
        socket.terminate();
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('open', () => {
        signal.removeEventListener('abort', onAbort);
        resolve(socket);
      });
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
      socket.once('unexpected-response', (_request, response) => {
        signal.removeEventListener('abort', onAbort);
        socket.terminate();
        reject(
          new ProviderError(
            `${ENGINE} refused its websocket: ${response.statusCode}`,
            response.statusCode === 401 || response.statusCode === 403 ? 'unauthorized' : 'failed',
            { status: response.statusCode, provider: 'image' },
          ),
        );
      });
    });
  }

  /**
   * Resolves when the server says prompt `promptId` finished; rejects when it failed, was
   * interrupted or the socket dropped. Messages that came before the id was known count.
   */
  function watch(
    socket: WebSocket,
    onProgress: ((fraction: number) => void) | undefined,
    signal: AbortSignal,
  ) {
    const early: ServerMessage[] = [];
    let promptId: string | null = null;
    let settle: { resolve: () => void; reject: (error: Error) => void } | null = null;
    let outcome: { error: Error | null } | null = null;
    let reported = 0;
    const end = (error: Error | null) => {
      if (outcome) return;
      outcome = { error };
      if (!settle) return;
      if (error) settle.reject(error);
      else settle.resolve();
    };
    const handle = (message: ServerMessage) => {
      const data = message.data;
      if (!data || data.prompt_id !== promptId) return;
      if (message.type === 'progress' && typeof data.value === 'number') {
        const max = typeof data.max === 'number' && data.max > 0 ? data.max : 1;
        const fraction = Math.min(1, data.value / max);
        if (fraction > reported) {
          reported = fraction;
          onProgress?.(fraction);
        }
      } else if (
        (message.type === 'executing' && data.node === null) ||
        message.type === 'execution_success'
      ) {
        end(null);
      } else if (message.type === 'execution_error') {
        end(
          new ProviderError(
            `${ENGINE} failed in ${String(data.node_type)}: ${String(data.exception_type)}: ${String(data.exception_message)}`,
            'failed',
            { provider: 'image' },
          ),
        );
      } else if (message.type === 'execution_interrupted') {
        end(new ProviderError(`${ENGINE} interrupted the prompt`, 'failed', { provider: 'image' }));
      }
    };
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return; // Preview frames.
      let message: ServerMessage;
      try {
        message = JSON.parse(raw.toString()) as ServerMessage;
      } catch {
        return;
      }
      if (promptId === null) early.push(message);
      else handle(message);
    });
    socket.on('close', () =>
      end(
        new ProviderError(`${ENGINE} closed its websocket mid-job`, 'cut', { provider: 'image' }),
      ),
    );
    socket.on('error', (error) =>
      end(
        new ProviderError(`${ENGINE} websocket failed: ${error.message}`, 'cut', {
          provider: 'image',
        }),
      ),
    );
    return {
      /** Starts following `id`; resolves when it is done. */
      follow(id: string): Promise<void> {
        promptId = id;
        for (const message of early.splice(0)) handle(message);
        return new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(signal.reason as Error);
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          const wrap =
            <T extends unknown[]>(fn: (...args: T) => void) =>
            (...args: T) => {
              signal.removeEventListener('abort', onAbort);
              fn(...args);
            };
          settle = { resolve: wrap(resolve), reject: wrap(reject) };
          if (outcome) {
            const { error } = outcome as { error: Error | null };
            if (error) settle.reject(error);
            else settle.resolve();
          }
        });
      },
    };
  }

  async function resolveCheckpoint(request: ImageRequest, signal: AbortSignal): Promise<string> {
    const named = request.model ?? options.config.model;
    if (named) return named;
    const [first] = await listModels(signal);
    if (!first)
      throw new ProviderError(`${ENGINE} has no checkpoint to draw with`, 'rejected', {
        provider: 'image',
      });
    return first.id;
  }

  async function download(promptId: string, signal: AbortSignal): Promise<GeneratedImage[]> {
    const history = (await readJson(ENGINE, await call(`/history/${promptId}`, signal))) as Record<
      string,
      { outputs?: Record<string, { images?: HistoryImage[] }> } | undefined
    > | null;
    const outputs = history?.[promptId]?.outputs;
    const files = Object.values(outputs ?? {})
      .flatMap((output) => (Array.isArray(output?.images) ? output.images : []))
      .filter((image) => image.type === 'output' && typeof image.filename === 'string');
    if (files.length === 0) throw malformed(`no output image in history ${promptId}`, history);
    const images: GeneratedImage[] = [];
    for (const file of files) {
      const query = new URLSearchParams({
        filename: String(file.filename),
        subfolder: typeof file.subfolder === 'string' ? file.subfolder : '',
        type: 'output',
      });
      const response = await call(`/view?${query}`, signal);
      if (!response.ok) {
        const text = await response.text();
        throw new ProviderError(
          `${ENGINE} answered ${response.status} for ${String(file.filename)}: ${text.slice(0, 300)}`,
          'malformed',
          { status: response.status, provider: 'image' },
        );
      }
      images.push(await checkImage(ENGINE, Buffer.from(await response.arrayBuffer())));
    }
    return images;
  }

  return {
    provider: 'comfyui',
    describe: () => `ComfyUI ${baseUrl}${options.config.model ? ` (${options.config.model})` : ''}`,
    listModels,
    async generate(request, { signal, onProgress }): Promise<GeneratedImage[]> {
      const limit = deadline(ENGINE, timeoutMs, signal);
      let socket: WebSocket | undefined;
      let promptId: string | undefined;
      try {
        const checkpoint = await resolveCheckpoint(request, limit.signal);
        const clientId = randomUUID();
        socket = await openSocket(clientId, limit.signal);
        const watcher = watch(socket, onProgress, limit.signal);
        const queued = (await readJson(
          ENGINE,
          await call('/prompt', limit.signal, {
            prompt: fillWorkflow(request, checkpoint),
            client_id: clientId,
          }),
        )) as { prompt_id?: unknown };
        if (typeof queued?.prompt_id !== 'string' || !queued.prompt_id)
          throw malformed('no prompt_id', queued);
        promptId = queued.prompt_id;
        await watcher.follow(promptId);
        return await download(promptId, limit.signal);
      } catch (error) {
        const explained = limit.explain(error);
        if (promptId && (explained.failure === 'cancelled' || explained.failure === 'timeout'))
          await stop(promptId);
        throw explained;
      } finally {
        socket?.terminate();
      }
    },
  };

  /** Interrupts the prompt if it runs and takes it off the queue if it waits (best effort). */
  async function stop(promptId: string) {
    for (const [path, body] of [
      ['/interrupt', { prompt_id: promptId }],
      ['/queue', { delete: [promptId] }],
    ] as const) {
      await call(path, AbortSignal.timeout(5000), body).then(
        (response) => response.body?.cancel(),
        (error: Error) => options.log.warn(`ComfyUI ${path} failed: ${error.message}`),
      );
    }
  }
}

function malformed(what: string, answer: unknown): ProviderError<ImageFailure> {
  return new ProviderError(
    `${ENGINE} answered without what its API promises (${what}): ${JSON.stringify(answer)?.slice(0, 300)}`,
    'malformed',
    { provider: 'image' },
  );
}
