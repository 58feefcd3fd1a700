import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { loadConfig } from '../src/config';
import { createImageEngine } from '../src/images/create-engine';
import { ProviderError } from '../src/domain/provider-error';
import {
  SAFE_NEGATIVE_PROMPT,
  type ImageEngine,
  type ImageFailure,
  type ImageRequest,
} from '../src/images/image-engine';
import {
  openAiErrors,
  startAutomatic1111Double,
  startComfyUiDouble,
  startOpenAiImagesDouble,
} from './image-doubles';
import { captureLog } from './log-capture';

// Issue #15: one ImageEngine over three real wire formats, each against a local double.

const portrait: ImageRequest = {
  prompt: 'Kai Tanaka at a night market, warm lanterns, portrait',
  width: 768,
  height: 1024,
  nsfw: false,
};

function engineFor(env: Record<string, string>, logs: string[] = []): ImageEngine {
  const engine = createImageEngine(
    loadConfig(env).image,
    globalThis.fetch,
    captureLog('debug', logs).logger,
    { pollIntervalMs: 10 },
  );
  if (!engine) throw new Error('no engine');
  return engine;
}

/** What the engine threw, checked to be a ProviderError of the picture engine. */
async function failureOf(promise: Promise<unknown>): Promise<ProviderError<ImageFailure>> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({ provider: 'image' });
  return error as ProviderError<ImageFailure>;
}

const never = () => new AbortController().signal;

/** An address where nothing listens: a port that was just given back. */
async function closedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('AUTOMATIC1111', () => {
  let double: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  let engine: ImageEngine;
  beforeAll(async () => {
    double = await startAutomatic1111Double();
    engine = engineFor({ IMAGE_PROVIDER: 'automatic1111', IMAGE_BASE_URL: double.url });
  });
  afterAll(() => double.close());

  it('lists the checkpoints of /sdapi/v1/sd-models', async () => {
    expect(await engine.listModels()).toEqual([
      { id: 'dreamshaper_8.safetensors [879db523c3]', name: 'dreamshaper_8' },
      { id: 'realisticVision_v51.safetensors [15012c538f]', name: 'realisticVision_v51' },
    ]);
  });

  it('draws a real PNG of the size asked, reporting progress while it runs', async () => {
    double.queue.push({ kind: 'ok', steps: 4 });
    const progress: number[] = [];
    const [image, ...more] = await engine.generate(
      { ...portrait, model: 'realisticVision_v51.safetensors [15012c538f]', seed: 42 },
      { signal: never(), onProgress: (fraction) => progress.push(fraction) },
    );
    expect(more).toEqual([]);
    expect(image).toMatchObject({ mimeType: 'image/png', width: 768, height: 1024 });
    expect((await sharp(image!.data).metadata()).format).toBe('png');
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    const call = double.requests.findLast((request) => request.url === '/sdapi/v1/txt2img');
    expect(call?.body).toMatchObject({
      prompt: portrait.prompt,
      negative_prompt: SAFE_NEGATIVE_PROMPT,
      width: 768,
      height: 1024,
      seed: 42,
      override_settings: { sd_model_checkpoint: 'realisticVision_v51.safetensors [15012c538f]' },
    });
  });

  it('adds no negative prompt of its own when mature content is allowed', async () => {
    await engine.generate(
      { ...portrait, nsfw: true, negativePrompt: 'blurry' },
      { signal: never() },
    );
    const call = double.requests.findLast((request) => request.url === '/sdapi/v1/txt2img');
    expect(call?.body?.negative_prompt).toBe('blurry');
    expect(call?.body).not.toHaveProperty('override_settings');
  });

  it.each([
    [
      422,
      {
        detail: [
          {
            loc: ['body', 'width'],
            msg: 'value is not a valid integer',
            type: 'type_error.integer',
          },
        ],
      },
      'rejected',
    ],
    [
      500,
      {
        error: 'OutOfMemoryError',
        detail: '',
        body: '',
        errors: 'CUDA out of memory. Tried to allocate 2.00 GiB',
      },
      'failed',
    ],
    [401, { detail: 'Incorrect credentials' }, 'unauthorized'],
  ] as const)('maps a %i answer to %s', async (status, body, failure) => {
    double.queue.push({ kind: 'status', status, body });
    const error = await failureOf(engine.generate(portrait, { signal: never() }));
    expect(error).toMatchObject({ failure, status });
    expect(error.message).toContain(`answered ${status}`);
  });

  it('says an answer without a picture is malformed', async () => {
    double.queue.push({ kind: 'garbage' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'malformed',
    });
  });

  it('says a dropped connection is cut', async () => {
    double.queue.push({ kind: 'drop' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'cut',
    });
  });

  it('cancels on abort and interrupts the engine', async () => {
    double.queue.push({ kind: 'hang' });
    const controller = new AbortController();
    const running = engine.generate(portrait, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(await failureOf(running)).toMatchObject({ failure: 'cancelled' });
    expect(double.wasInterrupted()).toBe(true);
  });

  it('times out after IMAGE_TIMEOUT', async () => {
    double.queue.push({ kind: 'hang' });
    const quick = engineFor({
      IMAGE_PROVIDER: 'automatic1111',
      IMAGE_BASE_URL: double.url,
      IMAGE_TIMEOUT: '0.3',
    });
    expect(await failureOf(quick.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'timeout',
    });
  });

  it('says an engine that is not there is unreachable', async () => {
    const gone = engineFor({ IMAGE_PROVIDER: 'automatic1111', IMAGE_BASE_URL: await closedUrl() });
    expect(await failureOf(gone.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'unreachable',
    });
    expect(await failureOf(gone.listModels())).toMatchObject({ failure: 'unreachable' });
  });

  it('sends IMAGE_API_KEY user:password as Basic auth (--api-auth)', async () => {
    const guarded = engineFor({
      IMAGE_PROVIDER: 'automatic1111',
      IMAGE_BASE_URL: double.url,
      IMAGE_API_KEY: 'mates:s3cret',
    });
    await guarded.listModels();
    expect(double.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('mates:s3cret').toString('base64')}`,
    );
  });
});

describe('ComfyUI', () => {
  let double: Awaited<ReturnType<typeof startComfyUiDouble>>;
  let engine: ImageEngine;
  beforeAll(async () => {
    double = await startComfyUiDouble();
    engine = engineFor({ IMAGE_PROVIDER: 'comfyui', IMAGE_BASE_URL: double.url });
  });
  afterAll(() => double.close());

  it('lists the checkpoints of /object_info/CheckpointLoaderSimple', async () => {
    expect(await engine.listModels()).toEqual([
      { id: 'dreamshaper_8.safetensors', name: 'dreamshaper_8' },
      { id: 'sd_xl_base_1.0.safetensors', name: 'sd_xl_base_1.0' },
    ]);
  });

  it('fills the workflow, follows progress over the websocket and downloads the PNG', async () => {
    double.queue.push({ kind: 'ok', steps: 5 });
    const progress: number[] = [];
    const [image] = await engine.generate(
      { ...portrait, model: 'sd_xl_base_1.0.safetensors', seed: 7 },
      { signal: never(), onProgress: (fraction) => progress.push(fraction) },
    );
    expect(image).toMatchObject({ mimeType: 'image/png', width: 768, height: 1024 });
    expect(progress).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    const queued = double.requests.findLast((request) => request.url === '/prompt');
    const graph = queued?.body?.prompt as Record<
      string,
      { class_type: string; inputs: Record<string, unknown> }
    >;
    const byClass = (type: string) =>
      Object.values(graph).filter((node) => node.class_type === type);
    expect(byClass('CheckpointLoaderSimple')[0]?.inputs.ckpt_name).toBe(
      'sd_xl_base_1.0.safetensors',
    );
    expect(byClass('EmptyLatentImage')[0]?.inputs).toMatchObject({ width: 768, height: 1024 });
    expect(byClass('KSampler')[0]?.inputs.seed).toBe(7);
    expect(byClass('CLIPTextEncode').map((node) => node.inputs.text)).toEqual([
      portrait.prompt,
      SAFE_NEGATIVE_PROMPT,
    ]);
    expect(typeof queued?.body?.client_id).toBe('string');
  });

  it('uses the first checkpoint when none is named or configured', async () => {
    await engine.generate({ ...portrait, nsfw: true }, { signal: never() });
    const graph = double.requests.findLast((request) => request.url === '/prompt')?.body
      ?.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    const loader = Object.values(graph).find(
      (node) => node.class_type === 'CheckpointLoaderSimple',
    );
    expect(loader?.inputs.ckpt_name).toBe('dreamshaper_8.safetensors');
    const negative = Object.values(graph).filter((node) => node.class_type === 'CLIPTextEncode')[1];
    expect(negative?.inputs.text).toBe('');
  });

  it('maps a refused prompt (unknown checkpoint, 400) to rejected', async () => {
    const error = await failureOf(
      engine.generate({ ...portrait, model: 'missing.safetensors' }, { signal: never() }),
    );
    expect(error).toMatchObject({ failure: 'rejected', status: 400 });
    expect(error.message).toContain('value_not_in_list');
  });

  it('maps an execution_error to failed, with the exception for the log', async () => {
    double.queue.push({ kind: 'execution_error', message: 'CUDA out of memory' });
    const error = await failureOf(engine.generate(portrait, { signal: never() }));
    expect(error).toMatchObject({ failure: 'failed' });
    expect(error.message).toContain('KSampler: torch.OutOfMemoryError: CUDA out of memory');
  });

  it('says a websocket dropped mid-job is cut, and a dropped /prompt call too', async () => {
    double.queue.push({ kind: 'drop-socket' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'cut',
    });
    double.queue.push({ kind: 'drop' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'cut',
    });
  });

  it('says a view that is not an image is malformed', async () => {
    double.queue.push({ kind: 'garbage' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'malformed',
    });
  });

  it('cancels on abort: interrupts the prompt and takes it off the queue', async () => {
    double.queue.push({ kind: 'hang' });
    const controller = new AbortController();
    const running = engine.generate(portrait, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(await failureOf(running)).toMatchObject({ failure: 'cancelled' });
    const queued = double.requests.findLast((request) => request.url === '/prompt');
    expect(queued).toBeDefined();
    const promptId = (double.interrupts.at(-1) as { prompt_id?: string } | undefined)?.prompt_id;
    expect(promptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(double.deletes.at(-1)).toEqual({ delete: [promptId] });
  });

  it('says an engine that is not there is unreachable', async () => {
    const gone = engineFor({
      IMAGE_PROVIDER: 'comfyui',
      IMAGE_BASE_URL: await closedUrl(),
      IMAGE_MODEL: 'a.safetensors',
    });
    expect(await failureOf(gone.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'unreachable',
    });
  });
});

describe('OpenAI-compatible images', () => {
  let double: Awaited<ReturnType<typeof startOpenAiImagesDouble>>;
  let engine: ImageEngine;
  beforeAll(async () => {
    double = await startOpenAiImagesDouble();
    engine = engineFor({
      IMAGE_PROVIDER: 'openai',
      IMAGE_BASE_URL: `${double.url}/v1`,
      IMAGE_MODEL: 'dall-e-3',
      IMAGE_API_KEY: 'sk-test',
    });
  });
  afterAll(() => double.close());

  it('lists IMAGE_MODEL', async () => {
    expect(await engine.listModels()).toEqual([{ id: 'dall-e-3', name: 'dall-e-3' }]);
  });

  it('draws through the openai client, asking for base64, with the key', async () => {
    const [image] = await engine.generate(
      { ...portrait, width: 1024, height: 1024 },
      { signal: never() },
    );
    expect(image).toMatchObject({ mimeType: 'image/png', width: 1024, height: 1024 });
    const call = double.requests.at(-1)!;
    expect(call.headers.authorization).toBe('Bearer sk-test');
    expect(call.body).toMatchObject({
      model: 'dall-e-3',
      prompt: portrait.prompt,
      n: 1,
      size: '1024x1024',
      response_format: 'b64_json',
    });
    // OpenAI's own moderation stays at its default.
    expect(call.body).not.toHaveProperty('moderation');
  });

  it('sends no response_format to GPT image models', async () => {
    await engine.generate({ ...portrait, model: 'gpt-image-1' }, { signal: never() });
    expect(double.requests.at(-1)?.body).not.toHaveProperty('response_format');
  });

  it.each([
    ['unauthorized', openAiErrors.unauthorized, 'unauthorized'],
    ['rate limited', openAiErrors.rateLimited, 'busy'],
    ['content policy', openAiErrors.contentPolicy, 'refused'],
    ['server error', openAiErrors.serverError, 'failed'],
  ] as const)('maps %s to %s', async (_name, answer, failure) => {
    double.queue.push({ kind: 'status', ...answer });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure,
      status: answer.status,
    });
  });

  it('says a dropped connection is cut, and bytes that are not an image malformed', async () => {
    double.queue.push({ kind: 'drop' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'cut',
    });
    double.queue.push({ kind: 'garbage' });
    expect(await failureOf(engine.generate(portrait, { signal: never() }))).toMatchObject({
      failure: 'malformed',
    });
  });

  it('cancels on abort', async () => {
    double.queue.push({ kind: 'hang' });
    const controller = new AbortController();
    const running = engine.generate(portrait, { signal: controller.signal });
    await expect.poll(() => double.queue.length).toBe(0);
    controller.abort();
    expect(await failureOf(running)).toMatchObject({ failure: 'cancelled' });
  });

  it('downloads the picture when a server answers a URL, and sends no key when none is set', async () => {
    const urls = await startOpenAiImagesDouble({ answerUrl: true });
    try {
      const local = engineFor({
        IMAGE_PROVIDER: 'openai',
        IMAGE_BASE_URL: `${urls.url}/v1`,
        IMAGE_MODEL: 'stablediffusion',
      });
      const [image] = await local.generate(portrait, { signal: never() });
      expect(image).toMatchObject({ mimeType: 'image/png', width: 768, height: 1024 });
      expect(urls.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await urls.close();
    }
  });
});
