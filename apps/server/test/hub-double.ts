import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Answers like Hugging Face: `GET /api/models/<repo>` lists the files (`siblings`), and
 * `/<repo>/resolve/main/<file>` serves each with its length. `faults` makes a file answer 404
 * or hang up half way; `hold` keeps the listing waiting until released. `FILES` is the
 * repository, by path.
 */
export async function startHubDouble(REPO: string, FILES: Record<string, Buffer>) {
  const requests: string[] = [];
  const faults = new Map<string, 'missing' | 'cut'>();
  let held: Promise<void> | undefined;
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = decodeURIComponent(req.url ?? '');
    requests.push(`${req.method} ${url}`);
    if (url === `/api/models/${REPO}?blobs=true`) {
      await held;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: REPO,
          // As the hub lists them with `blobs=true`: each file with its size.
          siblings: Object.entries(FILES).map(([rfilename, bytes]) => ({
            rfilename,
            size: bytes.length,
          })),
        }),
      );
      return;
    }
    const prefix = `/${REPO}/resolve/main/`;
    const name = url.startsWith(prefix) ? url.slice(prefix.length) : '';
    const file = FILES[name];
    if (!file || faults.get(name) === 'missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': file.length,
      'accept-ranges': 'none',
    });
    if (req.method === 'HEAD') return void res.end();
    if (faults.get(name) === 'cut') {
      res.write(file.subarray(0, file.length >> 1), () => res.destroy());
      return;
    }
    res.end(file);
  };
  const server = http.createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    faults,
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A running {@link startHubDouble}. */
export type HubDouble = Awaited<ReturnType<typeof startHubDouble>>;
