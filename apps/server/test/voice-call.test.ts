import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { CallServerMessage, CallTicket } from '@mates/api-client';
import {
  chattableMateId,
  DIALECTS,
  doubleModel,
  postgresAvailable,
  signUp,
  startTestServer,
} from './harness';
import { startOpenAiDouble } from './openai-double';
import { makeWav, startSpeechDouble } from './speech-doubles';
import { callHubOf } from '../src/voice/call-socket';
import { CALL_TURNS_WAITING } from '../src/voice/call-service';
import { killableServer } from './killable-server';

const withPostgres = await postgresAvailable();

/** What a call's socket received: JSON messages, and audio frames where they came. */
type Heard = (CallServerMessage | { type: 'audio'; bytes: number })[];

/** A call's socket as a browser holds it, with everything it received kept in order. */
async function openCall(base: string, socketPath: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${socketPath}`);
  const heard: Heard = [];
  let closed: { code: number; reason: string } | null = null;
  const waiters: (() => void)[] = [];
  const changed = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (process.env.CALL_DEBUG)
      console.log(Date.now() % 100000, isBinary ? 'audio' : data.toString().slice(0, 80));
    heard.push(
      isBinary
        ? { type: 'audio', bytes: data.byteLength }
        : (JSON.parse(data.toString()) as CallServerMessage),
    );
    changed();
  });
  socket.on('close', (code, reason) => {
    closed = { code, reason: reason.toString() };
    changed();
  });
  /** Resolves once `test` holds of what was heard (10 s at most). */
  const until = async (what: string, test: () => boolean) => {
    const deadline = Date.now() + 15_000;
    while (!test()) {
      if (Date.now() > deadline)
        throw new Error(
          `waited for ${what}; heard ${JSON.stringify(heard)}, closed ${JSON.stringify(closed)}`,
        );
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  const messages = <T extends CallServerMessage['type']>(type: T) =>
    heard.filter((item): item is Extract<CallServerMessage, { type: T }> => item.type === type);
  return {
    socket,
    heard,
    closed: () => closed,
    until,
    messages,
    send: (message: object) => socket.send(JSON.stringify(message)),
    speak: (audio: Buffer) => socket.send(audio),
    /** Waits for the message of `type` (the `nth`, from 1). */
    next: async <T extends CallServerMessage['type']>(type: T, nth = 1) => {
      await until(type, () => messages(type).length >= nth);
      return messages(type)[nth - 1]!;
    },
  };
}

describe.each(DIALECTS)('voice calls on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let ears: Awaited<ReturnType<typeof startSpeechDouble>>;

  beforeAll(async () => {
    if (skip) return;
    model = await startOpenAiDouble();
    ears = await startSpeechDouble({ transcript: 'Tell me about the sea.' });
    server = await startTestServer(dialect, {
      model: doubleModel(model),
      env: { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_BASE_URL: `${ears.url}/v1` },
      saveEveryMs: 0,
    });
    // The embedded engine's worker process started (a server's first synthesis forks it).
    const warm = await server.deps.speech!.synthesize(
      { text: 'Ready.', voice: 'embedded-slt' },
      { signal: AbortSignal.timeout(30_000) },
    );
    const made: Uint8Array[] = [];
    for await (const chunk of warm.chunks) made.push(chunk);
    expect(made.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    if (skip) return;
    if (process.env.CALL_DEBUG)
      console.log(server.logs.filter((line) => /voice call|error/i.test(line)).join('\n'));
    await server.close();
    await model.close();
    await ears.close();
  });

  /** A new person with a room; `start` asks for a ticket the way the browser does. */
  async function person() {
    const { userInfo, client } = await signUp(server);
    const room = await client.room.createRoom({ mateId: await chattableMateId(server.db) });
    const start = async (roomId = room.roomId) => {
      const response = await fetch(`${server.base}/api/call/start`, {
        method: 'POST',
        headers: { token: userInfo.token, 'content-type': 'application/json' },
        body: JSON.stringify({ roomId }),
      });
      return (await response.json()) as { c: number; m: string; d: CallTicket };
    };
    return { userInfo, client, room, start };
  }

  const messagesOf = (roomId: string) =>
    server.db
      .selectFrom('messages')
      .select(['id', 'role', 'content', 'status', 'call_id', 'call_cut'])
      .where('room_id', '=', roomId)
      .orderBy('position')
      .execute();

  it.skipIf(skip)('answers a ticket that opens the call once, and not after a minute', async () => {
    const { start } = await person();
    const { c, d } = await start();
    expect(c).toBe(200);
    expect(d.transcriber).toBe('server');
    expect(d.socketPath).toMatch(/^\/api\/call\/socket\?ticket=/);
    expect(Date.parse(d.expiresAt) - Date.now()).toBeGreaterThan(50_000);
    const call = await openCall(server.base, d.socketPath);
    await call.next('ready');
    expect(call.messages('ready')[0]).toMatchObject({ callId: d.callId, transcriber: 'server' });
    // The same ticket again: an error, then 4001.
    const again = await openCall(server.base, d.socketPath);
    await again.until('close', () => again.closed() !== null);
    expect(again.messages('error')[0]?.code).toBe(5002);
    expect(again.closed()?.code).toBe(4001);
    // A ticket past its minute opens nothing.
    const late = await start();
    await server.db
      .updateTable('call_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('call_id', '=', late.d.callId)
      .execute();
    const expired = await openCall(server.base, late.d.socketPath);
    await expired.until('close', () => expired.closed() !== null);
    expect(expired.closed()?.code).toBe(4001);
    // No ticket at all.
    const none = await openCall(server.base, '/api/call/socket');
    await none.until('close', () => none.closed() !== null);
    expect(none.closed()?.code).toBe(4001);
    call.send({ type: 'hang-up' });
    await call.until('close', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('hang-up');
  });

  it.skipIf(skip)(
    "refuses another person's room (4004), a caller signed out (5002), and too many starts",
    async () => {
      const owner = await person();
      const other = await person();
      expect((await other.start(owner.room.roomId)).c).toBe(4004);
      const anonymous = await fetch(`${server.base}/api/call/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ roomId: owner.room.roomId }),
      });
      expect(((await anonymous.json()) as { c: number }).c).toBe(5002);
      const limits = server.deps.limits as { callStart: unknown };
      const before = limits.callStart;
      limits.callStart = new RateLimiterMemory({ points: 2, duration: 3600 });
      try {
        expect((await owner.start()).c).toBe(200);
        expect((await owner.start()).c).toBe(200);
        const third = await owner.start();
        expect(third.c).toBe(5007);
        expect(third.d).toBeNull();
      } finally {
        limits.callStart = before;
      }
    },
  );

  it.skipIf(skip)('ends the first call when the person opens a second (replaced)', async () => {
    const { start } = await person();
    const first = await openCall(server.base, (await start()).d.socketPath);
    await first.next('ready');
    const second = await openCall(server.base, (await start()).d.socketPath);
    await second.next('ready');
    await first.until('ended', () => first.closed() !== null);
    expect(first.messages('ended')[0]?.reason).toBe('replaced');
    expect(second.closed()).toBeNull();
    second.send({ type: 'hang-up' });
    await second.until('close', () => second.closed() !== null);
  });

  it.skipIf(skip)(
    'turns an utterance into the person’s message and speaks the reply sentence by sentence',
    async () => {
      const { room, start, client } = await person();
      const chatsBefore = (await client.user.benefits()).chats;
      // The reply comes slowly: its first sentence must be heard before it is written whole.
      model.next({
        kind: 'stream',
        pieces: [
          'The sea is wide. ',
          'It holds 1,234 ',
          'islands',
          ' and',
          ' more.',
          ' Waves',
          ' come',
          ' and go.',
        ],
        delayMs: 600,
      });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.speak(makeWav(1.2, 16_000));
      await call.next('transcribing');
      const transcript = await call.next('transcript');
      expect(transcript.text).toBe('Tell me about the sea.');
      const end = await call.next('reply-end');
      expect(end).toMatchObject({
        cut: false,
        text: 'The sea is wide. It holds 1,234 islands and more. Waves come and go.',
      });
      const order = call.heard.map((item) => item.type);
      // The first sentence's audio went out before the reply's text was complete.
      const firstAudio = order.indexOf('audio');
      const lastText = order.lastIndexOf('reply-text');
      expect(firstAudio).toBeGreaterThan(order.indexOf('sentence'));
      expect(firstAudio).toBeLessThan(lastText);
      const sentences = call.messages('sentence');
      expect(sentences.map((sentence) => sentence.text)).toEqual([
        'The sea is wide.',
        'It holds 1,234 islands and more.',
        'Waves come and go.',
      ]);
      expect(sentences.map((sentence) => sentence.index)).toEqual([0, 1, 2]);
      expect(sentences[0]!.mimeType).toBe('audio/mpeg');
      // Each sentence is followed by its audio, and nothing else between.
      for (const sentence of sentences) {
        const at = call.heard.indexOf(sentence);
        expect(call.heard[at + 1]).toMatchObject({ type: 'audio' });
        expect((call.heard[at + 1] as { bytes: number }).bytes).toBeGreaterThan(1000);
      }
      expect(order.indexOf('reply-end')).toBeGreaterThan(order.lastIndexOf('audio'));
      // The transcript is the room's messages, marked as said in the call, charged as a chat.
      const saved = await messagesOf(room.roomId);
      const [said, reply] = saved.slice(-2);
      expect(said).toMatchObject({
        role: 'user',
        content: 'Tell me about the sea.',
        id: transcript.messageId,
      });
      expect(reply).toMatchObject({
        role: 'mate',
        status: 'complete',
        content: end.text,
        id: end.messageId,
      });
      expect(said!.call_id).toBeTruthy();
      expect(reply!.call_id).toBe(said!.call_id);
      expect((await client.user.benefits()).chats).toBe(chatsBefore - 1);
      const info = await client.room.roomInfo({ roomId: room.roomId });
      expect(info.messages.at(-1)?.call).toEqual({ callId: said!.call_id, cut: false });
      // What the mate said can be heard again through the speech link.
      const link = await client.speech.link({ messageId: end.messageId });
      expect(link.url).toContain('/api/voice/clip');
      // The browser's own recognition: words, the same path without transcription.
      call.send({ type: 'text', text: 'And the mountains?' });
      const second = await call.next('transcript', 2);
      expect(second.text).toBe('And the mountains?');
      await call.next('reply-end', 2);
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
      expect(call.closed()?.code).toBe(1000);
    },
  );

  it.skipIf(skip)('in a group, each member answers in turn in its own voice', async () => {
    const { userInfo, client } = await signUp(server);
    const mates = await server.db
      .selectFrom('mates')
      .select('id')
      .where('nsfw', '=', false)
      .where('visibility', '=', 'public')
      .orderBy('id')
      .limit(2)
      .execute();
    const voiceOf = ['embedded-rms', 'embedded-awb'];
    for (const [i, mate] of mates.entries())
      await server.db
        .updateTable('mates')
        .set({ voice: voiceOf[i]! })
        .where('id', '=', mate.id)
        .execute();
    const room = await client.room.createGroup({
      mateIds: mates.map((mate) => mate.id),
      turnOrder: 'list',
      scenario: 'A call.',
    });
    const speech = server.deps.speech!;
    const synthesize = speech.synthesize;
    const voices: string[] = [];
    speech.synthesize = (request, options) => {
      voices.push(request.voice);
      return synthesize(request, options);
    };
    try {
      model.next({ kind: 'stream', pieces: ['I speak first. ', 'Yes.'] });
      model.next({ kind: 'stream', pieces: ['And I second. ', 'Indeed.'] });
      const response = await fetch(`${server.base}/api/call/start`, {
        method: 'POST',
        headers: { token: userInfo.token, 'content-type': 'application/json' },
        body: JSON.stringify({ roomId: room.roomId }),
      });
      const ticket = ((await response.json()) as { d: CallTicket }).d;
      const call = await openCall(server.base, ticket.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'Hello, both of you.' });
      await call.next('reply-end', 2);
      const starts = call.messages('reply-start');
      expect(starts.map((start) => start.speakerId)).toEqual(mates.map((mate) => mate.id));
      // The second speaker starts once the first one's words were all sent.
      const order = call.heard.map((item) => item.type);
      expect(call.heard.indexOf(starts[1]!)).toBeGreaterThan(order.indexOf('reply-end'));
      expect(voices).toEqual(['embedded-rms', 'embedded-rms', 'embedded-awb', 'embedded-awb']);
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    } finally {
      speech.synthesize = synthesize;
    }
  });

  it.skipIf(skip)(
    'in a group nobody answers on their own, the transcript says so; a member named answers',
    async () => {
      const { userInfo, client } = await signUp(server);
      const mates = await server.db
        .selectFrom('mates')
        .select(['id', 'name'])
        .where('nsfw', '=', false)
        .where('visibility', '=', 'public')
        .orderBy('id')
        .limit(2)
        .execute();
      const room = await client.room.createGroup({
        mateIds: mates.map((mate) => mate.id),
        turnOrder: 'manual',
        scenario: 'A call.',
      });
      const response = await fetch(`${server.base}/api/call/start`, {
        method: 'POST',
        headers: { token: userInfo.token, 'content-type': 'application/json' },
        body: JSON.stringify({ roomId: room.roomId }),
      });
      const call = await openCall(
        server.base,
        ((await response.json()) as { d: CallTicket }).d.socketPath,
      );
      await call.next('ready');
      call.send({ type: 'text', text: 'Hello, is anyone there?' });
      expect(await call.next('transcript')).toMatchObject({
        text: 'Hello, is anyone there?',
        unanswered: true,
      });
      model.next({ kind: 'stream', pieces: ['I am here.'] });
      // Named in full: the seed's ids are drawn anew for each database, and the first word of
      // one mate's name in five is a title ("Captain", "Dr."), which names nobody.
      call.send({ type: 'text', text: `${mates[1]!.name}, are you there?` });
      const second = await call.next('transcript', 2);
      expect(second.unanswered).toBeUndefined();
      expect((await call.next('reply-start')).speakerId).toBe(mates[1]!.id);
      await call.next('reply-end');
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  it.skipIf(skip)(
    'refuses audio that is not a 16 kHz mono WAV, or longer than 30 s (4000)',
    async () => {
      const { start } = await person();
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.speak(Buffer.from('not a recording at all'));
      expect((await call.next('error')).code).toBe(4000);
      call.speak(makeWav(0.5, 24_000));
      expect((await call.next('error', 2)).code).toBe(4000);
      call.speak(makeWav(31, 16_000));
      expect((await call.next('error', 3)).code).toBe(4000);
      call.send({ type: 'nonsense' });
      expect((await call.next('error', 4)).code).toBe(4000);
      expect(call.messages('transcribing')).toHaveLength(0);
      expect(call.closed()).toBeNull();
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  it.skipIf(skip)('a barge-in stops the reply and saves what was heard, marked cut', async () => {
    const { room, start, client } = await person();
    model.next({
      kind: 'stream',
      pieces: [
        'First I say this. ',
        'Then I say that. ',
        ...Array.from({ length: 40 }, (_, i) => `Word ${i}. `),
      ],
      delayMs: 100,
    });
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Talk to me.' });
    const first = await call.next('sentence');
    const requestsBefore = model.requests.length;
    call.send({ type: 'barge-in', messageId: first.messageId, heard: 1 });
    const end = await call.next('reply-end');
    expect(end).toEqual({
      type: 'reply-end',
      messageId: first.messageId,
      text: 'First I say this.',
      cut: true,
    });
    const saved = (await messagesOf(room.roomId)).at(-1)!;
    expect(saved).toMatchObject({
      id: first.messageId,
      content: 'First I say this.',
      status: 'partial',
    });
    expect(Boolean(saved.call_cut)).toBe(true);
    const info = await client.room.roomInfo({ roomId: room.roomId });
    expect(info.messages.at(-1)?.call?.cut).toBe(true);
    // No more of it is spoken, and the next words are the next turn.
    const spoken = call.messages('sentence').length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(call.messages('sentence').filter((s) => s.messageId === first.messageId).length).toBe(
      spoken,
    );
    call.send({ type: 'text', text: 'Sorry, go on.' });
    expect((await call.next('transcript', 2)).text).toBe('Sorry, go on.');
    await call.next('reply-end', 2);
    expect(model.requests.length).toBe(requestsBefore + 1);
    // A cut reply is heard again through its speech link, as what was said.
    const link = await client.speech.link({ messageId: first.messageId });
    expect(link.url).toContain('/api/voice/clip');
    call.send({ type: 'hang-up' });
    await call.until('close', () => call.closed() !== null);
  });

  // Found by an outside review: the cut reply's words changed, but its clip, paid for and not
  // yet made, was kept: hearing the reply again paid for it a second time, the first coin lost.
  it.skipIf(skip)('a barge-in gives back a clip paid for its longer words', async () => {
    const { start, client } = await person();
    model.next({ kind: 'stream', pieces: ['First I say this. ', 'Then I say that.'] });
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Talk to me.' });
    const written = await call.next('reply-end');
    const coins = async () => (await client.user.benefits()).goldCoins;
    const before = await coins();
    expect((await client.speech.link({ messageId: written.messageId })).charged).toBe(1);
    call.send({ type: 'barge-in', messageId: written.messageId, heard: 1 });
    expect((await call.next('reply-end', 2)).text).toBe('First I say this.');
    // Heard again, as what was said: paid once in all.
    await client.speech.link({ messageId: written.messageId });
    expect(before - (await coins())).toBe(1);
    call.send({ type: 'hang-up' });
    await call.until('close', () => call.closed() !== null);
  });

  // Found by an outside review: each sentence was read alone, so a stage direction or a link
  // over two sentences no longer parsed as one, and its words (or the address) were spoken.
  it.skipIf(skip)(
    'a stage direction or a link over two sentences is spoken as the chat shows it',
    async () => {
      const { start } = await person();
      model.next({
        kind: 'stream',
        pieces: [
          '*She smiles softly. ',
          'She leans closer.* ',
          'Hello there. ',
          'Read [the docs. Really](https://example.com/a) today.',
        ],
        delayMs: 50,
      });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'Hi.' });
      const end = await call.next('reply-end');
      expect(end.text).toContain('*She smiles softly.');
      const spoken = call.messages('sentence').map((sentence) => sentence.text);
      expect(spoken.join(' ')).toBe('Hello there. Read the docs. Really today.');
      expect(call.messages('sentence').map((sentence) => sentence.index)).toEqual(
        spoken.map((_, index) => index),
      );
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  // Found by an outside review: the sentences of a held slice (a link over two of them) were all
  // synthesized before the first went out, so the person waited for the whole slice.
  it.skipIf(skip)(
    'a held slice is heard a sentence at a time: its first goes out while the next is made',
    async () => {
      const { start } = await person();
      const speech = server.deps.speech!;
      const synthesize = speech.synthesize.bind(speech);
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      speech.synthesize = async (request, options) => {
        if (request.text === 'Really today.') await released;
        return synthesize(request, options);
      };
      try {
        model.next({
          kind: 'stream',
          pieces: ['Read [the docs. ', 'Really](https://example.com/a) today.'],
        });
        const call = await openCall(server.base, (await start()).d.socketPath);
        await call.next('ready');
        call.send({ type: 'text', text: 'Where do I read?' });
        expect((await call.next('sentence')).text).toBe('Read the docs.');
        await call.until('its audio', () => call.heard.some((item) => item.type === 'audio'));
        release();
        await call.next('reply-end');
        expect(
          call.messages('sentence').map((sentence) => [sentence.index, sentence.text]),
        ).toEqual([
          [0, 'Read the docs.'],
          [1, 'Really today.'],
        ]);
        call.send({ type: 'hang-up' });
        await call.until('close', () => call.closed() !== null);
      } finally {
        release();
        speech.synthesize = synthesize;
      }
    },
  );

  // Found by an outside review: a sentence whose synthesis failed still took a number, so the
  // browser's count of clips heard named one sentence too few, and the cut saved one not heard.
  it.skipIf(skip)(
    'a barge-in after a sentence that could not be spoken keeps what was heard',
    async () => {
      const { room, start } = await person();
      const speech = server.deps.speech!;
      const synthesize = speech.synthesize.bind(speech);
      speech.synthesize = (request, options) =>
        request.text === 'Two.'
          ? Promise.reject(new Error('the engine could not speak this one'))
          : synthesize(request, options);
      try {
        model.next({
          kind: 'stream',
          pieces: [
            'One. ',
            'Two. ',
            'Three. ',
            ...Array.from({ length: 30 }, (_, i) => `Word ${i}. `),
          ],
          delayMs: 100,
        });
        const call = await openCall(server.base, (await start()).d.socketPath);
        await call.next('ready');
        call.send({ type: 'text', text: 'Count.' });
        const heard = await call.next('sentence', 2);
        expect(
          call.messages('sentence').map((sentence) => [sentence.index, sentence.text]),
        ).toEqual([
          [0, 'One.'],
          [1, 'Three.'],
        ]);
        // Both clips begun in the browser: two heard.
        call.send({ type: 'barge-in', messageId: heard.messageId, heard: 2 });
        const end = await call.next('reply-end');
        expect(end).toMatchObject({ text: 'One. Two. Three.', cut: true });
        expect((await messagesOf(room.roomId)).at(-1)).toMatchObject({
          id: heard.messageId,
          content: 'One. Two. Three.',
        });
        call.send({ type: 'hang-up' });
        await call.until('close', () => call.closed() !== null);
      } finally {
        speech.synthesize = synthesize;
      }
    },
  );

  // Found by an outside review: a barge-in on a reply of the turn before (its audio still
  // playing in the browser) took back every reply of the turn being answered.
  it.skipIf(skip)(
    'a late barge-in on an earlier reply leaves the reply being written',
    async () => {
      const { room, start } = await person();
      model.next({ kind: 'stream', pieces: ['First I say this. ', 'Then I say that.'] });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'Talk to me.' });
      const earlier = await call.next('reply-end');
      model.next({ kind: 'stream', pieces: ['Now ', 'the next ', 'answer.'], delayMs: 300 });
      call.send({ type: 'text', text: 'And then?' });
      const next = await call.next('reply-start', 2);
      call.send({ type: 'barge-in', messageId: earlier.messageId, heard: 1 });
      const endOf = (messageId: string) =>
        call.messages('reply-end').find((end) => end.messageId === messageId && end.cut === false);
      await call.until('the next reply', () => endOf(next.messageId) !== undefined);
      expect(endOf(next.messageId)?.text).toBe('Now the next answer.');
      expect((await messagesOf(room.roomId)).at(-1)).toMatchObject({
        id: next.messageId,
        content: 'Now the next answer.',
      });
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  it.skipIf(skip)('a barge-in before any sentence was heard takes the reply back', async () => {
    const { room, start, client } = await person();
    model.next({ kind: 'stream', pieces: ['One. ', 'Two. ', 'Three. ', 'Four.'], delayMs: 200 });
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    const chatsBefore = (await client.user.benefits()).chats;
    call.send({ type: 'text', text: 'Count.' });
    const started = await call.next('reply-start');
    call.send({ type: 'barge-in', messageId: started.messageId, heard: 0 });
    expect(await call.next('reply-end')).toMatchObject({ text: '', cut: true });
    const saved = await messagesOf(room.roomId);
    expect(saved.at(-1)).toMatchObject({ role: 'user', content: 'Count.' });
    expect(saved.some((message) => message.id === started.messageId)).toBe(false);
    expect((await client.user.benefits()).chats).toBe(chatsBefore);
    call.send({ type: 'hang-up' });
    await call.until('close', () => call.closed() !== null);
  });

  it.skipIf(skip)('hang-up mid-reply stops it and keeps what was said', async () => {
    const { room, start } = await person();
    model.next({
      kind: 'stream',
      pieces: ['Listen to this. ', ...Array.from({ length: 60 }, (_, i) => `Part ${i}. `)],
      delayMs: 100,
    });
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Tell me a long story.' });
    const first = await call.next('sentence');
    await call.until('its audio', () => call.heard.some((item) => item.type === 'audio'));
    call.send({ type: 'hang-up' });
    await call.until('close', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('hang-up');
    await waitForFree(room.roomId);
    const reply = (await messagesOf(room.roomId)).at(-1)!;
    expect(reply.id).toBe(first.messageId);
    expect(reply.content.startsWith('Listen to this.')).toBe(true);
    expect(reply.content).not.toContain('Part 59');
    expect(reply.status).toBe('partial');
    expect(Boolean(reply.call_cut)).toBe(true);
  });

  it.skipIf(skip)('a dropped connection stops the reply and keeps what was said', async () => {
    const { room, start } = await person();
    model.next({
      kind: 'stream',
      pieces: ['Here we go. ', ...Array.from({ length: 60 }, (_, i) => `Bit ${i}. `)],
      delayMs: 100,
    });
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Go on.' });
    const first = await call.next('sentence');
    await call.until('its audio', () => call.heard.some((item) => item.type === 'audio'));
    call.socket.terminate();
    await waitForFree(room.roomId);
    const reply = (await messagesOf(room.roomId)).at(-1)!;
    expect(reply.id).toBe(first.messageId);
    expect(reply.content.startsWith('Here we go.')).toBe(true);
    expect(reply.content).not.toContain('Bit 59');
    expect(Boolean(reply.call_cut)).toBe(true);
  });

  it.skipIf(skip)('signing out or changing the password ends the call (signed-out)', async () => {
    const { start, client } = await person();
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    await client.user.logout();
    await call.until('ended', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('signed-out');

    const second = await person();
    const other = await openCall(server.base, (await second.start()).d.socketPath);
    await other.next('ready');
    await second.client.user.changePassword({
      oldPassword: 'correct horse',
      newPassword: 'new horse!',
    });
    // The session that asked for the call stays (a password change keeps the caller's own).
    expect(other.closed()).toBeNull();
    // Its other sessions do not: a call opened with one of them ends.
    const login = await server
      .client()
      .user.login({ email: second.userInfo.email, password: 'new horse!' });
    const elsewhere = await fetch(`${server.base}/api/call/start`, {
      method: 'POST',
      headers: { token: login.token, 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: second.room.roomId }),
    });
    const ticket = ((await elsewhere.json()) as { d: CallTicket }).d;
    const third = await openCall(server.base, ticket.socketPath);
    await third.next('ready');
    await other.until('replaced', () => other.closed() !== null);
    await server.client({ token: second.userInfo.token }).user.changePassword({
      oldPassword: 'new horse!',
      newPassword: 'third horse!',
    });
    await third.until('ended', () => third.closed() !== null);
    expect(third.messages('ended')[0]?.reason).toBe('signed-out');
  });

  it.skipIf(skip)('a server stopping ends its calls (server), the reply saved', async () => {
    const { start } = await person();
    const call = await openCall(server.base, (await start()).d.socketPath);
    await call.next('ready');
    await callHubOf(server.deps).closeAll('server');
    await call.until('ended', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('server');
  });

  // Review: a reply that opens with an asterisk it never closes (`*smiles warmly. Hello…`)
  // shows in the chat with that asterisk as written, yet the call held all of it as an open
  // stage direction: nothing was said until the reply was written, then all of it as one
  // slice, so a barge-in after its first sentence saved every sentence as heard.
  it.skipIf(skip)(
    'review: a reply opening with an unclosed asterisk is spoken as written, and cut as heard',
    async () => {
      const { room, start } = await person();
      model.next({
        kind: 'stream',
        pieces: [
          '*smiles warmly. ',
          'Hello there. ',
          ...Array.from({ length: 30 }, (_, i) => `Line ${i}. `),
        ],
        delayMs: 100,
      });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'Hi.' });
      const first = await call.next('sentence');
      call.send({ type: 'barge-in', messageId: first.messageId, heard: 1 });
      const end = await call.next('reply-end');
      expect(end).toMatchObject({ cut: true, text: '*smiles warmly.' });
      expect((await messagesOf(room.roomId)).at(-1)).toMatchObject({
        id: first.messageId,
        content: '*smiles warmly.',
      });
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  // Review: the model writes far faster than speech is made, so the reply is usually written
  // whole while its second sentence is synthesized. Hanging up then kept the whole reply,
  // `complete`, not cut, though the person heard one sentence of thirty.
  it.skipIf(skip)(
    'review: hanging up while a written reply is still spoken keeps what went out, cut',
    async () => {
      const { room, start } = await person();
      model.next({
        kind: 'stream',
        pieces: [
          'Listen to this. ',
          ...Array.from({ length: 30 }, (_, i) => `This is part number ${i} of my story. `),
        ],
      });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'Tell me a long story.' });
      const first = await call.next('sentence');
      await call.until('its audio', () => call.heard.some((item) => item.type === 'audio'));
      // The reply is written whole long before it is spoken.
      await until(async () => !(await server.deps.chat.isBusy(room.roomId)));
      expect(call.messages('sentence').length).toBeLessThan(25);
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
      await waitForFree(room.roomId);
      const reply = (await messagesOf(room.roomId)).at(-1)!;
      expect(reply.id).toBe(first.messageId);
      expect(reply.content).not.toContain('part number 29');
      expect(Boolean(reply.call_cut)).toBe(true);
    },
  );

  // Each utterance waited in memory for its turn, however many came: a socket sending recordings
  // of 2 MB without pause grew the server until it died. Words that come while a few turns
  // already wait are refused at once, and the call goes on.
  it.skipIf(skip)(
    'refuses words while too many wait for their answer, and answers the rest',
    async () => {
      const { room, start } = await person();
      model.next({ kind: 'stream', pieces: ['One ', 'moment. ', 'Still here.'], delayMs: 300 });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      for (let index = 0; index < 12; index += 1)
        call.send({ type: 'text', text: `Words ${index}.` });
      const error = await call.next('error');
      expect(error).toMatchObject({
        code: 5007,
        message: 'Wait for the answer before saying more.',
      });
      await call.until(
        'the refusals',
        () => call.messages('error').length === 12 - 1 - CALL_TURNS_WAITING,
      );
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
      await waitForFree(room.roomId);
      // The first words and those that waited were kept; none of the refused ones.
      const said = (await messagesOf(room.roomId))
        .filter((message) => message.role === 'user')
        .map((message) => message.content);
      expect(said.length).toBeLessThanOrEqual(1 + CALL_TURNS_WAITING);
      expect(said).not.toContain('Words 11.');
    },
  );

  // Found by an outside review: with no chat left, the person's words were transcribed and
  // then thrown away with the refusal; nothing told them before they spoke.
  it.skipIf(skip)(
    'with no chat left the call is not started, and words after the last one are not taken',
    async () => {
      const { userInfo, client, start } = await person();
      const chatsTo = (chats: number) =>
        server.db
          .updateTable('benefits')
          .set({ chats })
          .where('user_id', '=', userInfo.uuid)
          .execute();
      await chatsTo(0);
      const refused = await start();
      expect(refused.c).toBe(5007);
      expect(refused.m).toBe('You have no chats left. Get more on the subscription page.');

      await chatsTo(1);
      model.next({ kind: 'stream', pieces: ['The last one.'] });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      call.send({ type: 'text', text: 'One more, please.' });
      await call.next('reply-end');
      expect((await client.user.benefits()).chats).toBe(0);
      const heardBefore = ears.requests.length;
      call.speak(makeWav(1.2, 16_000));
      const error = await call.next('error');
      expect(error).toMatchObject({
        code: 5007,
        message: 'You have no chats left. Get more on the subscription page.',
      });
      // Told at once: nothing was sent to be transcribed, no transcript came.
      expect(call.messages('transcribing')).toEqual([]);
      expect(ears.requests.length).toBe(heardBefore);
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
    },
  );

  // Review: the person went on after their pause, so their next words came while the first
  // reply was still spoken (the model writes far faster than speech is made). Hanging up then
  // cut only the reply of the newest words: the first one was kept whole and not cut, though
  // the person heard one sentence of it.
  it.skipIf(skip)(
    'review: hanging up cuts a reply still spoken while the next words are answered',
    async () => {
      const { room, start } = await person();
      model.next({
        kind: 'stream',
        pieces: [
          'Listen to this. ',
          ...Array.from({ length: 30 }, (_, i) => `This is part number ${i} of my story. `),
        ],
      });
      model.next({ kind: 'stream', pieces: ['And ', 'more.'], delayMs: 300 });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      const requestsBefore = model.requests.length;
      call.send({ type: 'text', text: 'Tell me a long story.' });
      const first = await call.next('sentence');
      call.send({ type: 'text', text: 'And then?' });
      // The second words are being answered while the first reply is still spoken.
      await until(async () => model.requests.length >= requestsBefore + 2);
      expect(call.messages('reply-end')).toEqual([]);
      call.send({ type: 'hang-up' });
      await call.until('close', () => call.closed() !== null);
      await waitForFree(room.roomId);
      const reply = (await messagesOf(room.roomId)).find(
        (message) => message.id === first.messageId,
      )!;
      expect(reply.content.startsWith('Listen to this.')).toBe(true);
      expect(reply.content).not.toContain('part number 29');
      expect(Boolean(reply.call_cut)).toBe(true);
    },
  );

  // Review: words said just before hanging up (or losing the line) were still sent; their reply
  // began after the call had ended, so nothing stopped it as a call's reply: whatever the model
  // had written by then was kept as said in the call, and charged, though nothing was heard.
  it.skipIf(skip)(
    'review: a reply that starts after the call ended is taken back, its chat given back',
    async () => {
      const { room, start, client } = await person();
      model.next({ kind: 'stream', pieces: ['You hung up. ', 'Nobody heard this.'] });
      const call = await openCall(server.base, (await start()).d.socketPath);
      await call.next('ready');
      const chatsBefore = (await client.user.benefits()).chats;
      // The hang-up comes while the turn is being sent (the room claimed, nothing written yet).
      const chat = server.deps.chat;
      const begin = chat.begin;
      chat.begin = async (roomId) => {
        if (roomId === room.roomId) {
          call.send({ type: 'hang-up' });
          await call.until('close', () => call.closed() !== null);
        }
        return begin.call(chat, roomId);
      };
      try {
        call.send({ type: 'text', text: 'Bye for now.' });
        await call.until('close', () => call.closed() !== null);
        await until(async () => (await messagesOf(room.roomId)).at(-1)?.role === 'user');
        await waitForFree(room.roomId);
      } finally {
        chat.begin = begin;
      }
      const saved = await messagesOf(room.roomId);
      expect(saved.at(-1)).toMatchObject({ role: 'user', content: 'Bye for now.' });
      expect(saved.some((message) => message.content.includes('Nobody heard this'))).toBe(false);
      expect((await client.user.benefits()).chats).toBe(chatsBefore);
    },
  );

  async function until(test: () => Promise<boolean>) {
    for (let tries = 0; tries < 150 && !(await test()); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  async function waitForFree(roomId: string) {
    await until(async () => !(await server.deps.chat.isBusy(roomId)));
    // The cut is written once the generation stopped.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
});

describe('a call whose server is killed mid-reply', () => {
  let server: Awaited<ReturnType<typeof killableServer>>;
  beforeAll(async () => {
    server = await killableServer('call-kill');
  });
  afterAll(() => server.close());

  it('keeps the person’s words, and the next start gives the unwritten reply’s chat back', async () => {
    await server.start();
    const { base, model } = server;
    const { db, token, client, room } = await server.signedIn('call-kill');
    const response = await fetch(`${base}/api/call/start`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: room.roomId }),
    });
    const ticket = ((await response.json()) as { d: CallTicket }).d;
    // The model never answers: the process dies while the reply waits for its first word.
    model.next({ kind: 'hang' });
    const call = await openCall(base, ticket.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Are you there?' });
    const said = await call.next('transcript');
    await call.next('reply-start');
    await server.kill();
    await call.until('the socket to drop', () => call.closed() !== null);
    const messages = () =>
      db
        .selectFrom('messages')
        .select(['id', 'role', 'content', 'status', 'call_id'])
        .where('room_id', '=', room.roomId)
        .orderBy('position')
        .execute();
    const left = (await messages()).slice(-2);
    expect(left[0]).toMatchObject({
      id: said.messageId,
      role: 'user',
      content: 'Are you there?',
      call_id: ticket.callId,
    });
    expect(left[1]).toMatchObject({ role: 'mate', status: 'partial', content: '' });

    await server.start();
    expect((await messages()).at(-1)).toMatchObject({ id: left[1]!.id, status: 'error' });
    expect((await client.user.benefits()).chats).toBe(5);
  }, 90_000);
});

/** A new person with a room on `server`, and the ticket of a call in it. */
async function newCaller(server: Awaited<ReturnType<typeof startTestServer>>) {
  const { userInfo, client } = await signUp(server);
  const room = await client.room.createRoom({ mateId: await chattableMateId(server.db) });
  const response = await fetch(`${server.base}/api/call/start`, {
    method: 'POST',
    headers: { token: userInfo.token, 'content-type': 'application/json' },
    body: JSON.stringify({ roomId: room.roomId }),
  });
  return ((await response.json()) as { d: CallTicket }).d;
}

describe('a call where nothing is said', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { CALL_IDLE_MINUTES: '0.02' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('ends after CALL_IDLE_MINUTES (idle), and the browser is told', async () => {
    const ticket = await newCaller(server);
    // The embedded transcription is the default: the server hears.
    expect(ticket.transcriber).toBe('server');
    const call = await openCall(server.base, ticket.socketPath);
    await call.next('ready');
    await call.until('ended', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('idle');
    expect(call.closed()?.code).toBe(1000);
  });
});

// Found by an outside review: the idle clock ran from the person's last words only, so a story
// longer than CALL_IDLE_MINUTES was cut mid-sentence with `idle`.
describe('a call where the mate speaks longer than the idle time', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  beforeAll(async () => {
    model = await startOpenAiDouble();
    server = await startTestServer('sqlite', {
      model: doubleModel(model),
      env: { CALL_IDLE_MINUTES: '0.02' },
      saveEveryMs: 0,
    });
  });
  afterAll(async () => {
    await server.close();
    await model.close();
  });

  it('is not ended while the mate speaks; the clock starts again from its last words', async () => {
    const ticket = await newCaller(server);
    // 1.2 s of idle time; a story of ten sentences over about 3 s.
    model.next({
      kind: 'stream',
      pieces: Array.from({ length: 10 }, (_, i) => `Part ${i + 1} of the story. `),
      delayMs: 300,
    });
    const call = await openCall(server.base, ticket.socketPath);
    await call.next('ready');
    call.send({ type: 'text', text: 'Tell me a long story.' });
    const end = await call.next('reply-end');
    expect(call.messages('ended')).toEqual([]);
    expect(end).toMatchObject({ cut: false });
    expect(call.messages('sentence')).toHaveLength(10);
    await call.until('ended', () => call.closed() !== null);
    expect(call.messages('ended')[0]?.reason).toBe('idle');
  });
});
