import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import { sendStarts } from '../src/chat/send-starts';

// Chat sends start first come, first served, a few at a time (#20): see send-starts.ts.

/** A promise settled from outside. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * An app whose `/send` holds each send (named by its body) until `finish(name)`, then lets go of
 * its place; a send named `refuse` throws instead.
 */
function startingApp(permits: number) {
  const app = new Hono();
  const held = new Map<string, ReturnType<typeof deferred>>();
  const started: string[] = [];
  let running = 0;
  let most = 0;
  app.use('/send', sendStarts(permits));
  app.post('/send', async (c) => {
    const name = await c.req.text();
    started.push(name);
    running += 1;
    most = Math.max(most, running);
    try {
      if (name === 'refuse') throw new Error('refused');
      const hold = deferred();
      held.set(name, hold);
      await hold.promise;
    } finally {
      running -= 1;
    }
    c.get('sendStarted')();
    return c.text(`sent ${name}`);
  });
  app.onError((_, c) => c.text('refused', 400));
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return {
    app,
    started,
    most: () => most,
    send: (name: string) => app.request('/send', { method: 'POST', body: name }),
    /** Waits until `name` is being started, then lets it finish. */
    finish: async (name: string) => {
      await until(() => held.has(name));
      held.get(name)!.resolve();
    },
    until,
  };
}

describe('chat sends starting', () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('starts sends in the order they came, two at a time', async () => {
    const starting = startingApp(2);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((name) => starting.send(name));
    await starting.until(() => starting.started.length === 2);
    expect(starting.started).toEqual(['a', 'b']);
    // The second to come finishes first: the next in line takes its place.
    await starting.finish('b');
    await starting.until(() => starting.started.length === 3);
    expect(starting.started).toEqual(['a', 'b', 'c']);
    for (const name of ['a', 'c', 'd', 'e']) await starting.finish(name);
    expect(await Promise.all(answers.map(async (answer) => (await answer).text()))).toEqual([
      'sent a',
      'sent b',
      'sent c',
      'sent d',
      'sent e',
    ]);
    expect(starting.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(starting.most()).toBe(2);
  });

  it('gives the place of a refused send to the next', async () => {
    const starting = startingApp(1);
    const refused = starting.send('refuse');
    const next = starting.send('next');
    expect((await refused).status).toBe(400);
    await starting.finish('next');
    expect(await (await next).text()).toBe('sent next');
  });

  it('holds no place for a send whose body is still arriving', async () => {
    const starting = startingApp(1);
    const server = createAdaptorServer({ fetch: starting.app.fetch }) as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const { port } = server.address() as AddressInfo;
    // Headers and part of the body, the rest later: a caller on a slow line, or one stalling.
    const slow = net.connect(port, '127.0.0.1');
    const slowAnswer = new Promise<string>((resolve) => {
      let text = '';
      slow.on('data', (piece) => (text += piece.toString()));
      slow.on('end', () => resolve(text));
    });
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    slow.write(
      'POST /send HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4\r\n\r\nsl',
    );
    const quick = fetch(`http://127.0.0.1:${port}/send`, { method: 'POST', body: 'quick' });
    await starting.finish('quick');
    expect(await (await quick).text()).toBe('sent quick');
    expect(starting.started).toEqual(['quick']);
    slow.write('ow');
    await starting.finish('slow');
    expect(await slowAnswer).toContain('sent slow');
  });
});
