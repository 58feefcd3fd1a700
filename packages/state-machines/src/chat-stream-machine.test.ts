import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '@mates/api-client';
import type { ChatSendOptions, ChatSendPayload, ChatStreamEvent, Message } from '@mates/api-client';
import { chatStreamMachine } from './chat-stream-machine';
import { flush } from './platform.test-helper';

interface Call {
  payload: ChatSendPayload;
  options: ChatSendOptions;
  finish: () => void;
  fail: (error: unknown) => void;
}

function setup() {
  const calls: Call[] = [];
  const chatSend = vi.fn(
    (payload: ChatSendPayload, options: ChatSendOptions) =>
      new Promise<void>((resolve, reject) => {
        calls.push({ payload, options, finish: resolve, fail: reject });
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason));
      }),
  );
  const logError = vi.fn();
  const actor = createActor(chatStreamMachine, {
    input: { client: { girl: { chatSend } } as never, roomId: 'room-1', platform: { logError } },
  }).start();
  const emit = (event: ChatStreamEvent) => calls.at(-1)!.options.onData(event);
  return { actor, calls, emit, logError, context: () => actor.getSnapshot().context };
}

const USER_MESSAGE = { messageId: 'msg-u', role: 'user', content: 'Hi' } as Message;
const start = (userMessage: Message | null = USER_MESSAGE): ChatStreamEvent => ({
  type: 'reply-start',
  roomId: 'room-1',
  userMessage,
  messageId: 'msg-r',
});
const delta = (text: string): ChatStreamEvent => ({ type: 'reply-delta', text });
const END: ChatStreamEvent = {
  type: 'reply-end',
  messageId: 'msg-r',
  finishReason: 'stop',
  usage: { promptTokens: 10, completionTokens: 2 },
  benefits: { chats: 4, goldCoins: 1, userId: 'u1' },
};

describe('chatStreamMachine', () => {
  it('idle → sending → streaming → done, appending deltas', async () => {
    const { actor, calls, emit, context } = setup();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'SEND', content: 'Hi' });
    expect(actor.getSnapshot().matches({ active: 'sending' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls[0]!.payload).toEqual({ roomId: 'room-1', content: 'Hi' });
    emit(start());
    expect(actor.getSnapshot().matches({ active: 'streaming' })).toBe(true);
    emit(delta('Hel'));
    emit(delta('lo!'));
    expect(context().replyText).toBe('Hello!');
    emit(END);
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context()).toMatchObject({
      replyText: 'Hello!',
      userMessage: USER_MESSAGE,
      replyMessageId: 'msg-r',
      benefits: { chats: 4, goldCoins: 1, userId: 'u1' },
      usage: { promptTokens: 10, completionTokens: 2 },
      error: null,
    });
  });

  it('ignores an empty message', () => {
    const { actor, calls } = setup();
    actor.send({ type: 'SEND', content: '   ' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toHaveLength(0);
  });

  it('ABORT cancels the request and keeps what arrived', async () => {
    const { actor, calls, emit, context, logError } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(delta('Half a'));
    actor.send({ type: 'ABORT' });
    await flush();
    expect(calls[0]!.options.signal!.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('aborted');
    expect(context().replyText).toBe('Half a');
    expect(logError).not.toHaveBeenCalled();
  });

  it('a stream error event is logged and keeps what arrived', async () => {
    const { actor, emit, context, logError } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(delta('Some'));
    emit({ type: 'error', message: 'The model stopped.', messageId: 'msg-r' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context()).toMatchObject({ replyText: 'Some', error: 'The model stopped.' });
    expect(logError).toHaveBeenCalledOnce();
  });

  it('a transport failure is logged and keeps what arrived', async () => {
    const { actor, calls, emit, context, logError } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(delta('Some'));
    calls[0]!.fail(new Error('network down'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context()).toMatchObject({ replyText: 'Some', error: 'network down' });
    expect(logError).toHaveBeenCalledOnce();
  });

  it('a refusal that says why keeps its reason for the screen, until the next send', async () => {
    const { actor, calls, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    calls[0]!.fail(
      new ApiError('The model is not available right now.', {
        code: 5007,
        method: 'POST',
        path: '/girl/chat/send',
        status: 200,
        reason: 'model-missing',
      }),
    );
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context()).toMatchObject({ failureReason: 'model-missing', userMessage: null });
    actor.send({ type: 'SEND', content: 'Hi again' });
    expect(context().failureReason).toBeNull();
  });

  describe('a refusal that passes by itself (the model still loading)', () => {
    const loading = () =>
      new ApiError('The model is still starting up.', {
        code: 5007,
        method: 'POST',
        path: '/girl/chat/send',
        status: 200,
        retryAfterMs: 2000,
      });

    it('waits as long as the server said, then sends the same message again', async () => {
      vi.useFakeTimers();
      try {
        const { actor, calls, emit, context, logError } = setup();
        actor.send({ type: 'SEND', content: 'Hi' });
        calls[0]!.fail(loading());
        await vi.advanceTimersByTimeAsync(0);
        expect(actor.getSnapshot().value).toBe('waiting');
        expect(actor.getSnapshot().hasTag('busy')).toBe(true);
        expect(context().waiting).toEqual({
          message: 'The model is still starting up.',
          retryInMs: 2000,
        });
        await vi.advanceTimersByTimeAsync(1999);
        expect(calls).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1);
        expect(calls).toHaveLength(2);
        expect(calls[1]!.payload).toEqual({ roomId: 'room-1', content: 'Hi' });
        expect(context().waiting).toBeNull();
        emit(start());
        emit(delta('Hello'));
        emit(END);
        calls[1]!.finish();
        await vi.advanceTimersByTimeAsync(0);
        expect(actor.getSnapshot().value).toBe('done');
        expect(logError).not.toHaveBeenCalled();
      } finally {
        vi.useRealTimers();
      }
    });

    it('ABORT while waiting gives up with the request kept, and nothing is sent again', async () => {
      vi.useFakeTimers();
      try {
        const { actor, calls, context } = setup();
        actor.send({ type: 'SEND', content: 'Hi' });
        calls[0]!.fail(loading());
        await vi.advanceTimersByTimeAsync(0);
        actor.send({ type: 'ABORT' });
        expect(actor.getSnapshot().value).toBe('failed');
        expect(context()).toMatchObject({ request: { content: 'Hi' }, userMessage: null });
        await vi.advanceTimersByTimeAsync(10_000);
        expect(calls).toHaveLength(1);
      } finally {
        vi.useRealTimers();
      }
    });

    it('any other refusal fails at once', async () => {
      const { actor, calls } = setup();
      actor.send({ type: 'SEND', content: 'Hi' });
      calls[0]!.fail(
        new ApiError('No chats left.', {
          code: 5007,
          method: 'POST',
          path: '/girl/chat/send',
          status: 200,
        }),
      );
      await flush();
      expect(actor.getSnapshot().value).toBe('failed');
    });
  });

  it('a stream that closes without reply-end counts as failed', async () => {
    const { actor, calls, emit } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
  });

  it('REGENERATE asks for a new reply to the last message', async () => {
    const { actor, calls, emit, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(delta('First'));
    emit(END);
    calls[0]!.finish();
    await flush();
    actor.send({ type: 'REGENERATE' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-1', regenerate: true });
    expect(context().replyText).toBe('');
  });

  it('REGENERATE works at once in a room opened on an earlier conversation', () => {
    const { actor, calls } = setup();
    actor.send({ type: 'REGENERATE' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls[0]!.payload).toEqual({ roomId: 'room-1', regenerate: true });
  });

  it('REGENERATE from an edited message continues the conversation from it', async () => {
    const { actor, calls, emit } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(END);
    calls[0]!.finish();
    await flush();
    actor.send({ type: 'REGENERATE', fromMessageId: 'msg-u' });
    expect(calls[1]!.payload).toEqual({
      roomId: 'room-1',
      regenerate: true,
      fromMessageId: 'msg-u',
    });
  });

  it('RETRY resends the message when it never reached the server', async () => {
    const { actor, calls } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    calls[0]!.fail(new TypeError('fetch failed'));
    await flush();
    actor.send({ type: 'RETRY' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-1', content: 'Hi' });
  });

  it('RETRY regenerates when the message was saved, so it is not sent twice', async () => {
    const { actor, calls, emit } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    actor.send({ type: 'ABORT' });
    await flush();
    actor.send({ type: 'RETRY' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-1', regenerate: true });
  });

  it('a new SEND after a reply starts a fresh one', async () => {
    const { actor, calls, emit, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit(start());
    emit(delta('One'));
    emit(END);
    calls[0]!.finish();
    await flush();
    actor.send({ type: 'SEND', content: 'Again' });
    expect(context().replyText).toBe('');
    expect(calls[1]!.payload).toEqual({ roomId: 'room-1', content: 'Again' });
  });
});
