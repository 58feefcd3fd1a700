import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';

/** A real PNG of the size asked, one flat colour (what a double "draws"). */
export function drawPng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 90 } },
  })
    .png()
    .toBuffer();
}

/** How a double answers its engine's generation call. */
export type ImageBehaviour =
  /** A picture; A1111 and ComfyUI report `steps` steps of progress first. */
  | { kind: 'ok'; steps?: number }
  /** An error status with the engine's own error body. */
  | { kind: 'status'; status: number; body: unknown }
  /** The connection is destroyed before an answer. */
  | { kind: 'drop' }
  /** ComfyUI only: its websocket closes after the first step. */
  | { kind: 'drop-socket' }
  /** Accepted and never finished (ComfyUI: after one step of 100): only a cancel or a time limit ends it. */
  | { kind: 'hang' }
  /** A 200 whose image is not an image. */
  | { kind: 'garbage' }
  /** ComfyUI only: the prompt fails while executing (`execution_error`). */
  | { kind: 'execution_error'; message: string };

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function listen(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Shared by the doubles: a behaviour queue, the requests seen, and answers left open. */
function base() {
  const requests: Recorded[] = [];
  const queue: ImageBehaviour[] = [];
  const hanging = new Set<http.ServerResponse>();
  return {
    requests,
    queue,
    hanging,
    next: (): ImageBehaviour => queue.shift() ?? { kind: 'ok' },
    hang(res: http.ServerResponse) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
    },
  };
}

const waitFor = (condition: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (condition() ? resolve() : setTimeout(check, 5));
    check();
  });

/**
 * AUTOMATIC1111's API (`--api`): `POST /sdapi/v1/txt2img` answers `{images, parameters,
 * info}` (base64 PNGs); `GET /sdapi/v1/progress` answers `{progress, eta_relative, state,
 * current_image, textinfo}`; `GET /sdapi/v1/sd-models` the checkpoints; errors as FastAPI
 * answers them (422 `{detail: [...]}`, 500 `{error, detail, body, errors}`). A job with steps
 * advances one step each time progress is asked, and answers once every step was reported,
 * so progress is seen whatever the machine's speed.
 */
export async function startAutomatic1111Double() {
  const shared = base();
  const models = [
    {
      title: 'dreamshaper_8.safetensors [879db523c3]',
      model_name: 'dreamshaper_8',
      hash: '879db523c3',
      sha256: '879db523c30d3b9017143d56705015e15a2cb5628762c11d086fed9538abd7fd',
      filename: '/models/Stable-diffusion/dreamshaper_8.safetensors',
      config: null,
    },
    {
      title: 'realisticVision_v51.safetensors [15012c538f]',
      model_name: 'realisticVision_v51',
      hash: '15012c538f',
      sha256: null,
      filename: '/models/Stable-diffusion/realisticVision_v51.safetensors',
      config: null,
    },
  ];
  let job: { step: number; steps: number } | null = null;
  let interrupted = false;
  /** `start <prompt>` when a txt2img request arrives, `end <prompt>` when it is answered. */
  const drawing: string[] = [];
  const a1111Answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    shared.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const url = new URL(req.url!, 'http://double');
    if (req.method === 'GET' && url.pathname === '/sdapi/v1/sd-models')
      return json(res, 200, models);
    if (req.method === 'POST' && url.pathname === '/sdapi/v1/interrupt') {
      interrupted = true;
      for (const open of shared.hanging) open.destroy();
      return json(res, 200, {});
    }
    if (req.method === 'GET' && url.pathname === '/sdapi/v1/progress') {
      if (job && job.step < job.steps) job.step += 1;
      return json(res, 200, {
        progress: job ? job.step / job.steps : 0,
        eta_relative: job ? (job.steps - job.step) * 0.5 : 0,
        state: {
          skipped: false,
          interrupted,
          job: job ? 'job' : '',
          job_count: job ? 1 : 0,
          job_timestamp: '20261123120000',
          job_no: 0,
          sampling_step: job?.step ?? 0,
          sampling_steps: job?.steps ?? 0,
        },
        current_image: null,
        textinfo: null,
      });
    }
    if (req.method === 'POST' && url.pathname === '/sdapi/v1/txt2img') {
      const prompt = String(body?.prompt ?? '');
      drawing.push(`start ${prompt}`);
      res.on('close', () => drawing.push(`end ${prompt}`));
      const behaviour = shared.next();
      if (behaviour.kind === 'status') return json(res, behaviour.status, behaviour.body);
      if (behaviour.kind === 'drop') return req.socket.destroy();
      if (behaviour.kind === 'hang') {
        job = { step: 0, steps: 1_000_000 };
        return shared.hang(res);
      }
      const width = Number(body?.width ?? 512);
      const height = Number(body?.height ?? 512);
      if (behaviour.kind === 'garbage')
        return json(res, 200, { images: ['bm90IGEgcGljdHVyZQ=='], parameters: body, info: '{}' });
      const steps = behaviour.kind === 'ok' ? (behaviour.steps ?? 0) : 0;
      if (steps > 0) {
        job = { step: 0, steps };
        const current = job;
        await waitFor(() => current.step >= current.steps || res.destroyed);
      }
      job = null;
      const png = await drawPng(width, height);
      return json(res, 200, {
        images: [png.toString('base64')],
        parameters: body,
        info: JSON.stringify({ prompt: body?.prompt, seed: body?.seed, width, height }),
      });
    }
    json(res, 404, { detail: 'Not Found' });
  };
  const server = http.createServer(
    (req, res) => void a1111Answer(req, res).catch(() => res.destroy()),
  );
  const url = await listen(server);
  return {
    url,
    ...shared,
    models,
    drawing,
    /** Whether `/sdapi/v1/interrupt` was called. */
    wasInterrupted: () => interrupted,
    close: async () => {
      for (const open of shared.hanging) open.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * ComfyUI's server: `POST /prompt` `{prompt, client_id}` answers `{prompt_id, number,
 * node_errors}` (400 `{error: {type, message, details, extra_info}, node_errors}` when
 * invalid, e.g. an unknown checkpoint); the websocket `/ws?clientId=` sends `status`,
 * `execution_start`, `executing` {node}, `progress` {value, max}, `executed`, and `executing`
 * with node null when done; `GET /history/{id}`, `GET /view?filename&subfolder&type`,
 * `GET /object_info/CheckpointLoaderSimple`, `POST /interrupt`, `POST /queue` `{delete}`.
 */
export async function startComfyUiDouble() {
  const shared = base();
  const checkpoints = ['dreamshaper_8.safetensors', 'sd_xl_base_1.0.safetensors'];
  const sockets = new Map<string, WebSocket>();
  const history = new Map<string, unknown>();
  const files = new Map<string, Buffer>();
  const interrupts: unknown[] = [];
  const deletes: unknown[] = [];
  const comfyAnswer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    shared.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const url = new URL(req.url!, 'http://double');
    if (req.method === 'GET' && url.pathname === '/object_info/CheckpointLoaderSimple')
      return json(res, 200, {
        CheckpointLoaderSimple: {
          input: { required: { ckpt_name: [checkpoints, { tooltip: 'The checkpoint.' }] } },
          output: ['MODEL', 'CLIP', 'VAE'],
          name: 'CheckpointLoaderSimple',
          category: 'loaders',
          output_node: false,
        },
      });
    if (req.method === 'POST' && url.pathname === '/interrupt') {
      interrupts.push(body);
      return res.writeHead(200).end();
    }
    if (req.method === 'POST' && url.pathname === '/queue') {
      deletes.push(body);
      return res.writeHead(200).end();
    }
    if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
      const id = url.pathname.slice('/history/'.length);
      return json(res, 200, history.has(id) ? { [id]: history.get(id) } : {});
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      const file = files.get(url.searchParams.get('filename') ?? '');
      if (!file || url.searchParams.get('type') !== 'output') return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': 'image/png' }).end(file);
    }
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const behaviour = shared.next();
      if (behaviour.kind === 'status') return json(res, behaviour.status, behaviour.body);
      if (behaviour.kind === 'drop') return req.socket.destroy();
      const graph = (body?.prompt ?? {}) as Record<
        string,
        { class_type: string; inputs: Record<string, unknown> }
      >;
      const loader = Object.entries(graph).find(
        ([, node]) => node.class_type === 'CheckpointLoaderSimple',
      );
      const ckpt = loader?.[1].inputs.ckpt_name;
      if (!loader || !checkpoints.includes(String(ckpt)))
        return json(res, 400, {
          error: {
            type: 'prompt_outputs_failed_validation',
            message: 'Prompt outputs failed validation',
            details: '',
            extra_info: {},
          },
          node_errors: {
            [loader?.[0] ?? '4']: {
              errors: [
                {
                  type: 'value_not_in_list',
                  message: 'Value not in list',
                  details: `ckpt_name: '${String(ckpt)}' not in ${JSON.stringify(checkpoints)}`,
                  extra_info: {},
                },
              ],
              dependent_outputs: ['9'],
              class_type: 'CheckpointLoaderSimple',
            },
          },
        });
      const promptId = randomUUID();
      const socket = sockets.get(String(body?.client_id));
      json(res, 200, { prompt_id: promptId, number: shared.requests.length, node_errors: {} });
      const latent = Object.values(graph).find((node) => node.class_type === 'EmptyLatentImage');
      void run(behaviour, promptId, socket, latent?.inputs ?? {});
      return;
    }
    json(res, 404, { error: 'not found' });
  };
  const server = http.createServer(
    (req, res) => void comfyAnswer(req, res).catch(() => res.destroy()),
  );
  const send = (socket: WebSocket | undefined, type: string, data: Record<string, unknown>) =>
    socket?.send(JSON.stringify({ type, data }));
  async function run(
    behaviour: ImageBehaviour,
    promptId: string,
    socket: WebSocket | undefined,
    latent: Record<string, unknown>,
  ) {
    send(socket, 'status', { status: { exec_info: { queue_remaining: 1 } } });
    send(socket, 'execution_start', { prompt_id: promptId, timestamp: Date.now() });
    send(socket, 'executing', { node: '4', display_node: '4', prompt_id: promptId });
    send(socket, 'executing', { node: '3', display_node: '3', prompt_id: promptId });
    if (behaviour.kind === 'hang') {
      send(socket, 'progress', { value: 1, max: 100, prompt_id: promptId, node: '3' });
      return;
    }
    const steps = behaviour.kind === 'ok' ? (behaviour.steps ?? 0) : 1;
    for (let value = 1; value <= steps; value++) {
      send(socket, 'progress', { value, max: steps, prompt_id: promptId, node: '3' });
      // A preview frame, as ComfyUI sends between steps (binary, ignored by clients).
      socket?.send(Buffer.from([0, 0, 0, 1, 0, 0, 0, 2]));
      if (behaviour.kind === 'drop-socket') return socket?.terminate();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (behaviour.kind === 'execution_error') {
      send(socket, 'execution_error', {
        prompt_id: promptId,
        node_id: '3',
        node_type: 'KSampler',
        executed: ['4', '5', '6', '7'],
        exception_message: behaviour.message,
        exception_type: 'torch.OutOfMemoryError',
        traceback: ['Traceback (most recent call last):'],
        current_inputs: {},
        current_outputs: {},
      });
      return;
    }
    const filename = `mates_${promptId.slice(0, 8)}_00001_.png`;
    files.set(
      filename,
      behaviour.kind === 'garbage'
        ? Buffer.from('not a picture')
        : await drawPng(Number(latent.width ?? 512), Number(latent.height ?? 512)),
    );
    const images = [{ filename, subfolder: '', type: 'output' }];
    history.set(promptId, {
      prompt: [1, promptId, {}, { client_id: 'x' }, ['9']],
      outputs: { '9': { images } },
      status: { status_str: 'success', completed: true, messages: [] },
      meta: { '9': { node_id: '9', display_node: '9', parent_node: null, real_node_id: '9' } },
    });
    send(socket, 'executed', {
      node: '9',
      display_node: '9',
      output: { images },
      prompt_id: promptId,
    });
    send(socket, 'executing', { node: null, prompt_id: promptId });
    send(socket, 'execution_success', { prompt_id: promptId, timestamp: Date.now() });
  }
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url!, 'http://double');
    if (url.pathname !== '/ws') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') ?? randomUUID();
      sockets.set(clientId, ws);
      ws.on('close', () => sockets.delete(clientId));
      send(ws, 'status', { status: { exec_info: { queue_remaining: 0 } }, sid: clientId });
    });
  });
  const url = await listen(server);
  return {
    url,
    ...shared,
    checkpoints,
    interrupts,
    deletes,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * OpenAI's images API: `POST /v1/images/generations` answers `{created, data: [{b64_json}]}`
 * (or `{url}` when `answerUrl`), errors as `{error: {message, type, param, code}}`.
 */
export async function startOpenAiImagesDouble(options: { answerUrl?: boolean } = {}) {
  const shared = base();
  const files = new Map<string, Buffer>();
  const openAiAnswer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    shared.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    if (req.method === 'GET' && req.url?.startsWith('/files/')) {
      const file = files.get(req.url.slice('/files/'.length));
      return file
        ? res.writeHead(200, { 'content-type': 'image/png' }).end(file)
        : res.writeHead(404).end();
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations')
      return json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    const behaviour = shared.next();
    if (behaviour.kind === 'status') return json(res, behaviour.status, behaviour.body);
    if (behaviour.kind === 'drop') return req.socket.destroy();
    if (behaviour.kind === 'hang') return shared.hang(res);
    const [width, height] = String(body?.size ?? '1024x1024')
      .split('x')
      .map(Number);
    const png =
      behaviour.kind === 'garbage' ? Buffer.from('not a picture') : await drawPng(width!, height!);
    if (options.answerUrl) {
      const name = `${randomUUID()}.png`;
      files.set(name, png);
      const address = server.address() as AddressInfo;
      return json(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data: [
          { url: `http://127.0.0.1:${address.port}/files/${name}`, revised_prompt: body?.prompt },
        ],
      });
    }
    json(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data: [{ b64_json: png.toString('base64') }],
      usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50 },
    });
  };
  const server = http.createServer(
    (req, res) => void openAiAnswer(req, res).catch(() => res.destroy()),
  );
  const url = await listen(server);
  return {
    url,
    ...shared,
    close: async () => {
      for (const open of shared.hanging) open.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** OpenAI's error bodies. */
export const openAiErrors = {
  unauthorized: {
    status: 401,
    body: {
      error: {
        message:
          'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  },
  rateLimited: {
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached for images per minute. Please try again in 12s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  contentPolicy: {
    status: 400,
    body: {
      error: {
        message:
          'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
        type: 'invalid_request_error',
        param: null,
        code: 'content_policy_violation',
      },
    },
  },
  serverError: {
    status: 500,
    body: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
} as const;
