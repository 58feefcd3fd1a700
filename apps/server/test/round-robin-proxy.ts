import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP proxy in front of several servers, as a load balancer would stand: each
 * request goes to the next server in turn; one that refuses the connection (it is down) is
 * skipped for the next. Answers, event streams included, are passed on as they arrive.
 */
export async function startRoundRobinProxy(backends: string[]) {
  let next = 0;
  /** Which backend answered each request, in order. */
  const served: string[] = [];
  const forward = (
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse,
    triesLeft: number,
  ) => {
    const backend = backends[next++ % backends.length]!;
    const target = new URL(req.url ?? '/', backend);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        served.push(backend);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on('close', () => answer.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && triesLeft > 1) {
        forward(req, body, res, triesLeft - 1);
        return;
      }
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    upstream.end(body);
  };
  const server = http.createServer((req, res) => {
    // The body is kept whole, so that a request can go to the next server if one is down.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, backends.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
