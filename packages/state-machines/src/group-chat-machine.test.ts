import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError, GROUP_LIMITS } from '@mates/api-client';
import type { ChatSendOptions, ChatSendPayload, ChatStreamEvent, Message } from '@mates/api-client';
import { groupChatMachine } from './group-chat-machine';
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
  const actor = createActor(groupChatMachine, {
    input: { client: { girl: { chatSend } } as never, roomId: 'room-g', platform: { logError } },
  }).start();
  const emit = (event: ChatStreamEvent) => calls.at(-1)!.options.onData(event);
  /** One whole reply by `speakerId`, its text in two deltas. */
  const reply = (speakerId: string, messageId: string, text: string, first = false) => {
    emit(start(speakerId, messageId, first ? USER_MESSAGE : null));
    const half = Math.ceil(text.length / 2);
    emit({ type: 'reply-delta', text: text.slice(0, half) });
    emit({ type: 'reply-delta', text: text.slice(half) });
    emit(end(messageId));
  };
  return { actor, calls, emit, reply, logError, context: () => actor.getSnapshot().context };
}

const USER_MESSAGE = { messageId: 'msg-u', role: 'user', content: 'Hi, Kai' } as Message;
const start = (
  speakerId: string,
  messageId: string,
  userMessage: Message | null = null,
): ChatStreamEvent => ({
  type: 'reply-start',
  roomId: 'room-g',
  userMessage,
  messageId,
  speakerId,
});
const end = (messageId: string, chats = 4): ChatStreamEvent => ({
  type: 'reply-end',
  messageId,
  finishReason: 'stop',
  usage: { promptTokens: 10, completionTokens: 2 },
  benefits: { chats, goldCoins: 1, userId: 'u1' },
});

describe('groupChatMachine', () => {
  it('follows one stream of several speakers: the current one, and those done this turn', async () => {
    const { actor, calls, emit, reply, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi, Kai' });
    expect(calls[0]!.payload).toEqual({ roomId: 'room-g', content: 'Hi, Kai' });
    expect(actor.getSnapshot().matches({ active: 'sending' })).toBe(true);
    reply('kai', 'r1', 'Stew is late.', true);
    expect(context()).toMatchObject({ speakerId: 'kai', replyText: 'Stew is late.', ended: true });
    emit(start('lyra', 'r2'));
    // The next speaker: the first reply is done, the person's message is still the turn's.
    expect(context()).toMatchObject({
      speakerId: 'lyra',
      replyMessageId: 'r2',
      replyText: '',
      ended: false,
      userMessage: USER_MESSAGE,
      replies: [{ messageId: 'r1', speakerId: 'kai', text: 'Stew is late.' }],
    });
    emit({ type: 'reply-delta', text: 'As always.' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    emit(end('r2', 3));
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context()).toMatchObject({
      speakerId: 'lyra',
      replyText: 'As always.',
      benefits: { chats: 3 },
      replies: [{ messageId: 'r1' }],
    });
  });

  it('a message nobody answers on their own (message-saved) ends the turn whole', async () => {
    const { actor, calls, emit, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit({ type: 'message-saved', roomId: 'room-g', userMessage: USER_MESSAGE });
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(context()).toMatchObject({ userMessage: USER_MESSAGE, replyText: '', replies: [] });
  });

  it('CONTINUE asks for one more reply by the next speaker, LET_SPEAK by a named one', async () => {
    const { actor, calls, reply } = setup();
    actor.send({ type: 'CONTINUE' });
    expect(calls[0]!.payload).toEqual({ roomId: 'room-g', next: true });
    reply('noor', 'r1', 'Well then.');
    calls[0]!.finish();
    await flush();
    actor.send({ type: 'LET_SPEAK', speakerId: 'kai' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-g', next: true, speakerId: 'kai' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('LET_SPEAK without a member is ignored', () => {
    const { actor, calls } = setup();
    actor.send({ type: 'LET_SPEAK', speakerId: '' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toHaveLength(0);
  });

  it('stops going on without the person after the limit in a row, until they write', async () => {
    const { actor, calls, reply } = setup();
    for (let index = 0; index < GROUP_LIMITS.continuesInRow; index += 1) {
      actor.send({ type: index % 2 ? 'CONTINUE' : 'LET_SPEAK', speakerId: 'kai' });
      reply('kai', `r${index}`, 'More.');
      calls.at(-1)!.finish();
      await flush();
    }
    expect(actor.getSnapshot().context.nextsInRow).toBe(GROUP_LIMITS.continuesInRow);
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'LET_SPEAK', speakerId: 'kai' });
    expect(actor.getSnapshot().value).toBe('done');
    expect(calls).toHaveLength(GROUP_LIMITS.continuesInRow);
    actor.send({ type: 'SEND', content: 'Go on, then' });
    expect(actor.getSnapshot().context.nextsInRow).toBe(0);
    reply('kai', 'r-last', 'Gladly.', true);
    calls.at(-1)!.finish();
    await flush();
    actor.send({ type: 'CONTINUE' });
    expect(calls.at(-1)!.payload).toEqual({ roomId: 'room-g', next: true });
  });

  it('goes on again once the person edits their message and it is answered again', async () => {
    const { actor, calls, reply } = setup();
    for (let index = 0; index < GROUP_LIMITS.continuesInRow; index += 1) {
      actor.send({ type: 'CONTINUE' });
      reply('kai', `r${index}`, 'More.');
      calls.at(-1)!.finish();
      await flush();
    }
    // Another version of the last reply is no message of the person's: still the limit.
    actor.send({ type: 'REGENERATE' });
    reply('kai', 'r-again', 'More still.');
    calls.at(-1)!.finish();
    await flush();
    expect(actor.getSnapshot().context.nextsInRow).toBe(GROUP_LIMITS.continuesInRow);
    // An edited message answered again: the "Continue"s after it went with the edit.
    actor.send({ type: 'REGENERATE', fromMessageId: 'msg-u' });
    expect(actor.getSnapshot().context.nextsInRow).toBe(0);
    reply('kai', 'r-edit', 'Anew.');
    calls.at(-1)!.finish();
    await flush();
    actor.send({ type: 'CONTINUE' });
    expect(calls.at(-1)!.payload).toEqual({ roomId: 'room-g', next: true });
  });

  it('ABORT stops the current speaker and the turn, keeping what arrived', async () => {
    const { actor, calls, emit, reply, context, logError } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    reply('kai', 'r1', 'Whole.', true);
    emit(start('lyra', 'r2'));
    emit({ type: 'reply-delta', text: 'Half a' });
    actor.send({ type: 'ABORT' });
    await flush();
    expect(calls[0]!.options.signal!.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('aborted');
    expect(context()).toMatchObject({
      speakerId: 'lyra',
      replyText: 'Half a',
      replies: [{ messageId: 'r1', speakerId: 'kai' }],
    });
    expect(logError).not.toHaveBeenCalled();
  });

  it('an error event ends the turn with the finished replies kept, and is logged', () => {
    const { actor, emit, reply, context, logError } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    reply('kai', 'r1', 'Whole.', true);
    emit(start('lyra', 'r2'));
    emit({ type: 'error', message: 'The model stopped.', messageId: 'r2' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(context()).toMatchObject({
      error: 'The model stopped.',
      speakerId: 'lyra',
      replyMessageId: 'r2',
      replies: [{ messageId: 'r1' }],
    });
    expect(logError).toHaveBeenCalledOnce();
  });

  it('a stream that closes in the middle of a speaker counts as failed', async () => {
    const { actor, calls, emit, reply } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    reply('kai', 'r1', 'Whole.', true);
    emit(start('lyra', 'r2'));
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
  });

  it('RETRY regenerates the failed reply once a reply began, so nothing is sent twice', async () => {
    const { actor, calls, emit } = setup();
    actor.send({ type: 'CONTINUE' });
    emit(start('lyra', 'r1'));
    calls[0]!.fail(new TypeError('network down'));
    await flush();
    actor.send({ type: 'RETRY' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-g', regenerate: true });
  });

  it('RETRY sends the same request again when nothing reached the server', async () => {
    const { actor, calls } = setup();
    actor.send({ type: 'LET_SPEAK', speakerId: 'noor' });
    calls[0]!.fail(new TypeError('fetch failed'));
    await flush();
    actor.send({ type: 'RETRY' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-g', next: true, speakerId: 'noor' });
  });

  it('REGENERATE writes the last reply again, with a fresh turn', async () => {
    const { actor, calls, reply, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    reply('kai', 'r1', 'One.', true);
    reply('lyra', 'r2', 'Two.');
    calls[0]!.finish();
    await flush();
    actor.send({ type: 'REGENERATE' });
    expect(calls[1]!.payload).toEqual({ roomId: 'room-g', regenerate: true });
    expect(context()).toMatchObject({ replies: [], replyText: '', speakerId: null });
  });

  it('waits out a model still loading, then sends the same request again', async () => {
    vi.useFakeTimers();
    try {
      const { actor, calls, context } = setup();
      actor.send({ type: 'CONTINUE' });
      calls[0]!.fail(
        new ApiError('The model is still starting up.', {
          code: 5007,
          method: 'POST',
          path: '/girl/chat/send',
          status: 200,
          retryAfterMs: 1500,
        }),
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().hasTag('waiting')).toBe(true);
      expect(context().waiting?.retryInMs).toBe(1500);
      await vi.advanceTimersByTimeAsync(1500);
      expect(calls[1]!.payload).toEqual({ roomId: 'room-g', next: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a one-to-one room runs the same: one reply without a speaker', async () => {
    const { actor, calls, emit, context } = setup();
    actor.send({ type: 'SEND', content: 'Hi' });
    emit({ type: 'reply-start', roomId: 'room-g', userMessage: USER_MESSAGE, messageId: 'r1' });
    emit({ type: 'reply-delta', text: 'Hello!' });
    emit(end('r1'));
    calls[0]!.finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(context()).toMatchObject({ speakerId: null, replyText: 'Hello!', replies: [] });
  });
});
