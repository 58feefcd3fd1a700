/** A request as the fake fetch saw it. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

type Responder = (request: SeenRequest) => Response | Promise<Response>;

/** A `fetch` that records every request and answers with the given responder. */
export function createFakeFetch(responder: Responder) {
  const requests: SeenRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      url: new URL(String(input), 'http://localhost'),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    return responder(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** A JSON envelope response. */
export function envelopeResponse(c: number, d: unknown = null, m = '', status = 200) {
  return new Response(JSON.stringify({ c, m, d }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** An event-stream response whose body yields the given chunks, one per read. */
export function streamResponse(chunks: (string | Error)[], signal?: AbortSignal) {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason);
        return;
      }
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else if (chunk instanceof Error) controller.error(chunk);
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}
