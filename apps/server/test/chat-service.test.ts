import { describe, expect, it } from 'vitest';
import { createChatService, ServerStopping } from '../src/chat/chat-service';
import { unconfiguredModel } from './harness';

describe('the chat service stopping', () => {
  it('stops the replies being written, and each one begun afterwards', async () => {
    const chat = createChatService(unconfiguredModel());
    const writing = (await chat.begin('room-1'))!;
    const stop = new ServerStopping();
    chat.stopAll(stop);
    expect(writing.signal.reason).toBe(stop);
    // A send that was waiting its turn when the stop came: stopped at once, so the stop does
    // not wait for its whole reply.
    const late = (await chat.begin('room-2'))!;
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(stop);
    await chat.end('room-1');
    await chat.end('room-2');
    await chat.whenIdle();
  });
});
