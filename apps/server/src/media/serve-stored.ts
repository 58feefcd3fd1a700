import rangeParser from 'range-parser';
import { ifNoneMatchNames } from '../http/conditional';
import type { MediaStore } from './media-store';

/** How a stored object is answered. */
export interface ServeOptions {
  /** The media type to send; by default the store's. */
  contentType?: string;
  cacheControl: string;
  /** More headers for every answer (`X-Content-Type-Options`…). */
  headers?: Record<string, string>;
}

/**
 * Answers `request` with the object `key` of `store`, wherever the store keeps it (so every
 * server answers for every object): its length, type, `ETag` and `Last-Modified`; `304` when
 * the caller's copy is current; one `Range` (parsed by range-parser, as Express does) as `206`,
 * one that cannot be met as `416`, several or a malformed one as the whole object; `404` when
 * there is none. A `HEAD` gets the headers without reading the object.
 */
export async function serveStored(
  store: MediaStore,
  key: string,
  request: Request,
  options: ServeOptions,
): Promise<Response> {
  const info = await store.stat(key);
  if (!info) return new Response('Not found', { status: 404, headers: options.headers });
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': options.contentType ?? info.contentType,
    'accept-ranges': 'bytes',
    'cache-control': options.cacheControl,
    etag: info.etag,
    'last-modified': info.lastModified.toUTCString(),
  };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatchNames(ifNoneMatch, info.etag))
    return new Response(null, { status: 304, headers });

  const size = info.size;
  const wanted = request.headers.get('range');
  const ifRange = request.headers.get('if-range');
  // A range of a copy that has changed since (If-Range) is the whole new object instead.
  const ranges =
    wanted && (!ifRange || ifRange === info.etag)
      ? rangeParser(size, wanted, { combine: true })
      : -2;
  if (ranges === -1)
    return new Response('Range not satisfiable', {
      status: 416,
      headers: { ...headers, 'content-range': `bytes */${size}` },
    });
  const head = request.method === 'HEAD';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) {
    const body = head || size === 0 ? null : await store.read(key);
    if (!head && size > 0 && !body) return new Response('Not found', { status: 404 });
    return new Response(body, {
      status: 200,
      headers: { ...headers, 'content-length': String(size) },
    });
  }
  const { start, end } = ranges[0]!;
  const body = head ? null : await store.read(key, { start, end });
  if (!head && !body) return new Response('Not found', { status: 404 });
  return new Response(body, {
    status: 206,
    headers: {
      ...headers,
      'content-length': String(end - start + 1),
      'content-range': `bytes ${start}-${end}/${size}`,
    },
  });
}
