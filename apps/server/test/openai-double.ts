import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the double answers the next `/v1/chat/completions` call. */
export type Behaviour =
  | {
      kind: 'stream';
      pieces: string[];
      delayMs?: number;
      finishReason?: 'stop' | 'length';
      usage?: boolean;
      /** Of the prompt's 42 tokens, those its usage says came from the prompt cache. */
      cachedTokens?: number;
    }
  | { kind: 'cut'; pieces: string[]; delayMs?: number }
  | { kind: 'status'; status: number; body: unknown }
  /** A 200 with any body, e.g. an HTML page from a proxy or a non-streamed JSON completion. */
  | { kind: 'raw'; contentType: string; body: string }
  /** The connection ends cleanly after the pieces, with no finish_reason and no [DONE]. */
  | { kind: 'closed'; pieces: string[]; delayMs?: number }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Streams the pieces, then goes silent with the connection open. */
  | { kind: 'stall'; pieces: string[]; delayMs?: number };

/** `pieces` as far as the text before the first of `stops` in it, cut where they were. */
function stoppedAt(pieces: string[], stops: string[]): string[] {
  const text = pieces.join('');
  const end = Math.min(...stops.map((stop) => text.indexOf(stop)).filter((at) => at >= 0));
  if (!Number.isFinite(end)) return pieces;
  const kept: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    if (length >= end) break;
    kept.push(piece.slice(0, end - length));
    length += piece.length;
  }
  return kept.filter(Boolean);
}

/**
 * What OpenAI answers a reasoning model's request (o-series, GPT-5) for a parameter such a
 * model refuses, as its API words it, one at a time; `null` when the request is one it takes.
 */
function reasoningModelRefusal(body: Record<string, unknown>): object | null {
  const refused = (param: string, message: string, code: string) => ({
    error: { message, type: 'invalid_request_error', param, code },
  });
  if ('max_tokens' in body)
    return refused(
      'max_tokens',
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'unsupported_parameter',
    );
  if ('stop' in body)
    return refused(
      'stop',
      "Unsupported parameter: 'stop' is not supported with this model.",
      'unsupported_parameter',
    );
  if ('temperature' in body && body.temperature !== 1)
    return refused(
      'temperature',
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      'unsupported_value',
    );
  return null;
}

/**
 * An OpenAI-compatible server on 127.0.0.1 speaking the real streaming wire format:
 * `data: {chat.completion.chunk}` lines, a usage chunk when asked, then `data: [DONE]`.
 * `reasoning` makes it refuse what OpenAI's reasoning models refuse (`stop`, `max_tokens`, a
 * temperature other than 1) with OpenAI's 400.
 */
export async function startOpenAiDouble(options: { reasoning?: boolean } = {}) {
  const requests: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const queue: Behaviour[] = [];
  // Requests a test answers by what they ask (e.g. the memory writer's), ahead of the queue.
  let router: ((body: Record<string, unknown>) => Behaviour | undefined) | null = null;
  // Answers left open on purpose ('hang', 'stall'); closed with the double.
  const hanging: http.ServerResponse[] = [];
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Not found' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    requests.push({ headers: req.headers, body });
    const refusal = options.reasoning ? reasoningModelRefusal(body) : null;
    if (refusal) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
      return;
    }
    const behaviour = router?.(body) ??
      queue.shift() ?? { kind: 'stream', pieces: ['Hello', ' there.'] };
    if (behaviour.kind === 'hang') {
      hanging.push(res);
      return;
    }
    if (behaviour.kind === 'raw') {
      res.writeHead(200, { 'content-type': behaviour.contentType }).end(behaviour.body);
      return;
    }
    if (behaviour.kind === 'status') {
      res
        .writeHead(behaviour.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(behaviour.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const id = 'chatcmpl-test';
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    // OpenAI's `stop`: the text ends before the first of them the model writes, left out.
    const pieces = stoppedAt(behaviour.pieces, (body.stop as string[] | undefined) ?? []);
    for (const piece of pieces) {
      if (res.destroyed) return;
      await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs ?? 0));
      res.write(chunk({ content: piece }, null));
    }
    if (behaviour.kind === 'stall') {
      hanging.push(res);
      return;
    }
    if (behaviour.kind === 'closed') {
      res.end();
      return;
    }
    if (behaviour.kind === 'cut') {
      // The provider dies mid-reply: what it wrote arrives, then the connection drops without [DONE].
      await new Promise((resolve) => setTimeout(resolve, 30));
      res.socket?.destroy();
      return;
    }
    const stopped = pieces.join('') !== behaviour.pieces.join('');
    res.write(chunk({}, stopped ? 'stop' : (behaviour.finishReason ?? 'stop')));
    if (behaviour.usage !== false) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 42, completion_tokens: behaviour.pieces.length, total_tokens: 42 + behaviour.pieces.length, ...(behaviour.cachedTokens !== undefined && { prompt_tokens_details: { cached_tokens: behaviour.cachedTokens } }) } })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  };
  const server = http.createServer((req, res) => {
    answer(req, res).catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    next: (behaviour: Behaviour) => queue.push(behaviour),
    /** Answers the requests `route` picks (it returns a behaviour) before the queue's. */
    route: (route: typeof router) => {
      router = route;
    },
    close: () => {
      for (const res of hanging) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
