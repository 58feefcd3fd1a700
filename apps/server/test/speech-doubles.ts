import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real WAV file: 16-bit mono PCM, a 440 Hz tone of `seconds` at `sampleRate` (what the
 * speech double "says").
 */
export function makeWav(seconds: number, sampleRate = 24_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const file = Buffer.alloc(44 + samples * 2);
  file.write('RIFF', 0, 'ascii');
  file.writeUInt32LE(36 + samples * 2, 4);
  file.write('WAVE', 8, 'ascii');
  file.write('fmt ', 12, 'ascii');
  file.writeUInt32LE(16, 16);
  file.writeUInt16LE(1, 20); // PCM
  file.writeUInt16LE(1, 22); // mono
  file.writeUInt32LE(sampleRate, 24);
  file.writeUInt32LE(sampleRate * 2, 28);
  file.writeUInt16LE(2, 32);
  file.writeUInt16LE(16, 34);
  file.write('data', 36, 'ascii');
  file.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    file.writeInt16LE(
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)),
      44 + i * 2,
    );
  return file;
}

/**
 * A real MP3 stream: `frames` silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes
 * each, about 26 ms): a frame header and all-zero side information decode as silence.
 */
export function makeMp3(frames: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64], 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** How the double answers `/v1/audio/speech` or `/v1/audio/transcriptions`. */
export type SpeechBehaviour =
  /** Audio in several writes (speech) or the text (transcription). */
  | { kind: 'ok' }
  /** Speech only: the first part of the audio, then the rest once `release()` is called. */
  | { kind: 'gated' }
  /** An error status with the server's own error body. */
  | { kind: 'status'; status: number; body: unknown }
  /** The connection is destroyed before an answer. */
  | { kind: 'drop' }
  /** Speech only: the first part of the audio, then the connection is destroyed. */
  | { kind: 'cut' }
  /** Accepted and never answered: only a cancel or a time limit ends it. */
  | { kind: 'hang' }
  /** A 200 with JSON where audio (or `{text}`) belongs. */
  | { kind: 'garbage' };

/** A request the double received. */
export interface SpeechRequestSeen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body of `/v1/audio/speech`. */
  json?: Record<string, unknown>;
  /** The multipart form of `/v1/audio/transcriptions`. */
  form?: {
    fields: Record<string, string>;
    file: { name: string; type: string; bytes: Buffer } | null;
  };
}

/** OpenAI's error body. */
export function openAiError(message: string, type = 'invalid_request_error', code?: string) {
  return { error: { message, type, param: null, code: code ?? null } };
}

/** Error answers as OpenAI and Kokoro-FastAPI give them. */
export const speechErrors = {
  unauthorized: {
    status: 401,
    body: openAiError(
      'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.',
      'invalid_request_error',
      'invalid_api_key',
    ),
  },
  rateLimited: {
    status: 429,
    body: openAiError(
      'Rate limit reached for tts-1 in organization org-x on requests per min (RPM): Limit 3, Used 3.',
      'requests',
      'rate_limit_exceeded',
    ),
  },
  badVoice: {
    status: 400,
    body: openAiError(
      "Invalid value: 'bella'. Supported values are: 'alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', and 'verse'.",
    ),
  },
  unknownModel: {
    status: 404,
    body: openAiError(
      'The model `tts-9` does not exist or you do not have access to it.',
      'invalid_request_error',
      'model_not_found',
    ),
  },
  /** Kokoro-FastAPI (FastAPI) refusing a body. */
  unprocessable: {
    status: 422,
    body: {
      detail: [{ type: 'missing', loc: ['body', 'input'], msg: 'Field required', input: {} }],
    },
  },
  serverError: {
    status: 500,
    body: openAiError(
      'The server had an error while processing your request. Sorry about that!',
      'server_error',
    ),
  },
};

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const waitFor = (condition: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (condition() ? resolve() : setImmediate(check));
    check();
  });

/**
 * An OpenAI-compatible speech server on its real wire format:
 * - `POST /v1/audio/speech` (`{model, voice, input, response_format}`) answers the audio with
 *   `transfer-encoding: chunked` in {@link parts} writes, each after the last was flushed: a
 *   WAV for `wav`, MP3 frames otherwise; errors in OpenAI's JSON shape;
 * - `GET /v1/audio/voices` answers Kokoro-FastAPI's `{"voices": [...]}` when `voices` is
 *   given, else 404 as OpenAI answers an unknown path;
 * - `POST /v1/audio/transcriptions` reads the multipart form (parsed by undici's `FormData`),
 *   refuses it (400) without `file` and `model`, and answers `{"text": transcript}`.
 *
 * `queue` holds the next answers (default `ok`); `requests` what was received.
 */
export async function startSpeechDouble(
  options: { voices?: string[]; transcript?: string; parts?: number } = {},
) {
  const parts = options.parts ?? 4;
  const requests: SpeechRequestSeen[] = [];
  const queue: SpeechBehaviour[] = [];
  const hanging = new Set<http.ServerResponse>();
  let released = false;
  let gateOpen = () => {};
  const state = {
    /** What the last `/v1/audio/speech` answered in full, once it finished writing it. */
    sent: null as Buffer | null,
    /** Whether a gated answer is still waiting for `release()`. */
    waiting: false,
  };
  const next = () => queue.shift() ?? { kind: 'ok' as const };

  async function speech(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = JSON.parse((await readBody(req)).toString() || '{}') as Record<string, unknown>;
    requests.push({ method: req.method!, url: req.url!, headers: req.headers, json: body });
    const behaviour = next();
    if (behaviour.kind === 'status') return json(res, behaviour.status, behaviour.body);
    if (behaviour.kind === 'drop') return req.socket.destroy();
    if (behaviour.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (behaviour.kind === 'garbage') return json(res, 200, { audio: 'none' });
    for (const field of ['model', 'voice', 'input'])
      if (typeof body[field] !== 'string' || !body[field])
        return json(res, 400, openAiError(`Missing required parameter: '${field}'.`));
    const wav = body.response_format === 'wav';
    const audio = wav ? makeWav(0.5) : makeMp3(20);
    res.writeHead(200, {
      'content-type': wav ? 'audio/wav' : 'audio/mpeg',
      'transfer-encoding': 'chunked',
    });
    const size = Math.ceil(audio.length / parts);
    for (let start = 0, index = 0; start < audio.length; start += size, index++) {
      if (index === 1 && behaviour.kind === 'cut') return req.socket.destroy();
      if (index === 1 && behaviour.kind === 'gated') {
        state.waiting = true;
        await new Promise<void>((resolve) => {
          gateOpen = () => {
            released = false;
            resolve();
          };
          if (released) gateOpen();
        });
        state.waiting = false;
        if (res.destroyed) return;
      }
      const flushed = new Promise<void>((resolve) =>
        res.write(audio.subarray(start, start + size), () => resolve()),
      );
      await flushed;
    }
    res.end();
    state.sent = audio;
  }

  async function transcriptions(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readBody(req);
    let form: FormData;
    try {
      form = await new Request('http://double/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: new Uint8Array(raw),
      }).formData();
    } catch {
      return json(res, 400, openAiError('Could not parse multipart form'));
    }
    const fields: Record<string, string> = {};
    let file: { name: string; type: string; bytes: Buffer } | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else if (name === 'file')
        file = {
          name: value.name,
          type: value.type,
          bytes: Buffer.from(await value.arrayBuffer()),
        };
    }
    requests.push({
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      form: { fields, file },
    });
    const behaviour = next();
    if (behaviour.kind === 'status') return json(res, behaviour.status, behaviour.body);
    if (behaviour.kind === 'drop' || behaviour.kind === 'cut') return req.socket.destroy();
    if (behaviour.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (behaviour.kind === 'garbage') return json(res, 200, { transcript: 'no' });
    if (!file) return json(res, 400, openAiError("Missing required parameter: 'file'."));
    if (!fields.model) return json(res, 400, openAiError("Missing required parameter: 'model'."));
    json(res, 200, { text: options.transcript ?? 'Hello there, how was your day?' });
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = new URL(req.url!, 'http://double').pathname;
    if (req.method === 'POST' && path === '/v1/audio/speech') return speech(req, res);
    if (req.method === 'POST' && path === '/v1/audio/transcriptions')
      return transcriptions(req, res);
    if (req.method === 'GET' && path === '/v1/audio/voices') {
      requests.push({ method: req.method, url: req.url!, headers: req.headers });
      if (options.voices) return json(res, 200, { voices: options.voices });
    }
    json(res, 404, openAiError(`Invalid URL (${req.method} ${path})`));
  }

  const server = http.createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    queue,
    state,
    /** Lets a gated answer write the rest of its audio. */
    release() {
      released = true;
      gateOpen();
    },
    /** Resolves once a gated answer has sent its first part and waits. */
    gated: () => waitFor(() => state.waiting),
    close: async () => {
      released = true;
      gateOpen();
      for (const open of hanging) open.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens: a port that was just given back. */
export async function closedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
