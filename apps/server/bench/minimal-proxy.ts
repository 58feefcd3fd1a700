// The reference the chat figures are read against: the least a Node server must do to relay a
// streamed reply. It reads the request, asks the provider over a kept-alive connection with
// Node's HTTP client (as Mates does), and writes what the provider sends as it arrives: no
// session, no database, no prompt, nothing saved. What it costs on a machine is what any
// relay written in Node pays there. Mates' own cost is what it adds above this.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts the minimal relay in this process on a free port, in front of `providerUrl`'s
 * `/chat/completions`; returns that endpoint's URL on the relay and a way to stop it.
 */
export async function startMinimalProxy(
  providerUrl: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const endpoint = new URL(`${providerUrl}/chat/completions`);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const body = Buffer.concat(pieces);
      const upstream = http.request(
        endpoint,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'text/event-stream',
          });
          answer.on('data', (piece: Buffer) => res.write(piece));
          answer.on('end', () => res.end());
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat/completions`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
