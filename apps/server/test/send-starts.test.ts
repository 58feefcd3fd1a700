import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import { SENDS_STARTING_AT_ONCE, sendStarts } from '../src/chat/send-starts';
import { speechOf } from '../src/voice/speech-clips';
import { chattableMateId, newestMessageId, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

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
function startingApp(permits: number | null) {
  const app = new Hono();
  let arrived = 0;
  app.use('/send', async (_, next) => {
    arrived += 1;
    await next();
  });
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
  // Polled by vitest until it holds; the test's own timeout is the only limit.
  const until = (check: () => boolean) =>
    vi.waitFor(
      () => {
        if (!check()) throw new Error('not yet');
      },
      { timeout: 30_000, interval: 1 },
    );
  return {
    app,
    started,
    most: () => most,
    /** Sends that arrived and are not started: waiting for a place. */
    waiting: () => arrived - started.length,
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

  /** `app` served over HTTP on 127.0.0.1 until the test ends. */
  async function listening(app: Hono) {
    const server = createAdaptorServer({ fetch: app.fetch }) as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return server.address() as AddressInfo;
  }

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

  it('starts every send at once when it has no places (PostgreSQL)', async () => {
    const starting = startingApp(null);
    const answers = ['a', 'b', 'c'].map((name) => starting.send(name));
    await starting.until(() => starting.started.length === 3);
    for (const name of ['c', 'b', 'a']) await starting.finish(name);
    expect(await Promise.all(answers.map(async (answer) => (await answer).text()))).toEqual([
      'sent a',
      'sent b',
      'sent c',
    ]);
    expect(starting.most()).toBe(3);
  });

  it('drops a send whose caller left while it waited for a place', async () => {
    const starting = startingApp(1);
    const { port } = await listening(starting.app);
    const first = fetch(`http://127.0.0.1:${port}/send`, { method: 'POST', body: 'first' });
    await starting.until(() => starting.started.length === 1);
    // A whole send, then the caller hangs up while it waits behind the first.
    const leaving = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => leaving.once('connect', () => resolve()));
    leaving.write('POST /send HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\nleaving');
    await starting.until(() => starting.waiting() === 1);
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = fetch(`http://127.0.0.1:${port}/send`, { method: 'POST', body: 'after' });
    await starting.finish('first');
    await starting.finish('after');
    expect(await (await first).text()).toBe('sent first');
    expect(await (await after).text()).toBe('sent after');
    expect(starting.started).toEqual(['first', 'after']);
  });

  it('holds no place for a send whose body is still arriving', async () => {
    const starting = startingApp(1);
    const { port } = await listening(starting.app);
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

describe('a server on SQLite starting chat sends', () => {
  const suite = serverWithDouble('sqlite');

  it('lets the next send start while regenerations remove the voice of the replies they replace', async () => {
    const { client, userInfo } = await signUp(suite.server);
    const mateId = await chattableMateId(suite.server.db);
    // As many rooms as there are places, each with a voiced reply.
    const rooms: string[] = [];
    for (let index = 0; index < SENDS_STARTING_AT_ONCE; index += 1) {
      const { roomId } = await client.room.createRoom({ mateId });
      await client.girl.chatSend({ roomId, content: 'Hello there' }, { onData: () => {} });
      await suite.server.db
        .insertInto('speech_clips')
        .values({
          id: `clip-${index}`,
          message_id: await newestMessageId(suite.server.db, roomId),
          voice: 'v',
          text_hash: 'h',
          file: `spoken-reply-number-${index}.wav`,
          mime_type: 'audio/wav',
          duration_ms: 1000,
          cost: 1,
          user_id: userInfo.uuid,
          state: 'ready',
          making_until: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      rooms.push(roomId);
    }
    // The stored files are slow to go (a bucket having a bad moment): held until let go.
    const { store } = speechOf(suite.server.deps.config);
    const remove = store.remove.bind(store);
    const removals = deferred();
    store.remove = async (file) => {
      await removals.promise;
      await remove(file);
    };
    try {
      const regenerations = rooms.map((roomId) =>
        client.girl.chatSend({ roomId, regenerate: true }, { onData: () => {} }),
      );
      // Someone else's send starts and is answered meanwhile.
      const other = await signUp(suite.server);
      const { roomId } = await other.client.room.createRoom({ mateId });
      const events: string[] = [];
      await other.client.girl.chatSend(
        { roomId, content: 'Are you there?' },
        { onData: (event) => events.push(event.type) },
      );
      expect(events.at(-1)).toBe('reply-end');
      removals.resolve();
      await Promise.all(regenerations);
    } finally {
      removals.resolve();
      store.remove = remove;
    }
  });
});
