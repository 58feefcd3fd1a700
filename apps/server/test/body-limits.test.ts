import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, signUp } from './harness';

type Server = Awaited<ReturnType<typeof startTestServer>>;

interface Answer {
  envelope: { c: number; m: string; d: unknown };
  /** Whether the test had finished sending the body when the answer arrived. */
  sentAll: boolean;
}

/**
 * POSTs a body the test keeps sending, 16 KB at a time, and never finishes on its own:
 * the answer can only come while the stream is still open, before the server could
 * have buffered it.
 */
function postEndless(server: Server, path: string, headers: Record<string, string>) {
  const url = new URL(path, server.base);
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const sentAll = request.writableEnded;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        request.destroy();
        resolve({ envelope: JSON.parse(Buffer.concat(parts).toString('utf8')), sentAll });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const send = () => {
      while (!answered && !request.destroyed && request.write(chunk));
    };
    request.on('drain', send);
    send();
  });
}

describe('request bodies have a size limit per call', () => {
  let server: Server;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    token = (await signUp(server)).userInfo.token;
  });
  afterAll(() => server.close());

  it('answers an anonymous 150 MB upload with a 4000 envelope before it is sent', async () => {
    const answer = await postEndless(server, '/api/user/login', {
      'content-type': 'application/json',
      'content-length': String(150 * 1024 * 1024),
    });
    expect(answer.sentAll).toBe(false);
    expect(answer.envelope).toMatchObject({ c: 4000, d: null });
    expect(answer.envelope.m).toMatch(/too large.*64 KB/i);
  });

  it('stops reading a chunked body without a length once it passes the limit', async () => {
    const answer = await postEndless(server, '/api/user/register', {
      'content-type': 'application/json',
    });
    expect(answer.sentAll).toBe(false);
    expect(answer.envelope).toMatchObject({ c: 4000, d: null });
  });

  it('lets a card import be larger than a JSON call, up to its own limit', async () => {
    const big = 'x'.repeat(200 * 1024);
    const card = { spec: 'chara_card_v2', data: { name: 'Big Card', description: big } };
    const imported = await fetch(`${server.base}/api/mate/importCard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify({ card }),
    });
    expect(await imported.json()).toMatchObject({
      c: 4000,
      m: expect.stringMatching(/description/),
    });
    const tooBig = await postEndless(server, '/api/mate/importCard', {
      'content-type': 'application/json',
      token,
    });
    expect(tooBig.sentAll).toBe(false);
    expect(tooBig.envelope).toMatchObject({ c: 4000 });
    expect(tooBig.envelope.m).toMatch(/too large.*12 MB/i);
  });

  it('still reads a body under the limit', async () => {
    const answer = await fetch(`${server.base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(40_000) }),
    });
    const envelope = (await answer.json()) as { c: number; m: string };
    expect(envelope.m).not.toMatch(/too large/i);
  });
});
