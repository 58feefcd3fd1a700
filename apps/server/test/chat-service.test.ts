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

// Review of issue #38's locks for changes to a room (a deletion takes the room over from its
// reply; edits hold it as sends do).
describe('the chat service handing a room over', () => {
  it('stops each reply that takes the room while it waits, then holds it', async () => {
    const chat = createChatService(unconfiguredModel());
    const first = (await chat.begin('room-1'))!;
    let second: AbortController | null = null;
    // The first reply ends when stopped; a second send takes the room at once, before the
    // deletion's next try, and ends when stopped in turn.
    first.signal.addEventListener('abort', () => {
      void chat.end('room-1', first).then(async () => {
        second = await chat.begin('room-1');
        second!.signal.addEventListener('abort', () => void chat.end('room-1', second!));
      });
    });
    const held = await chat.takeOver('room-1');
    expect(first.signal.aborted).toBe(true);
    expect(second!.signal.aborted).toBe(true);
    expect(held).not.toBeNull();
    expect(await chat.begin('room-1')).toBeNull();
    await chat.end('room-1', held!);
    expect(await chat.isBusy('room-1')).toBe(false);
  });

  it('goes on without the room, the reply asked to stop, when the locks cannot be read', async () => {
    const published: string[] = [];
    const chat = createChatService(unconfiguredModel(), {
      locks: {
        claim: async () => {
          throw new Error('Redis does not answer');
        },
        isHeld: async () => true,
      },
      stops: { publish: async (roomId) => void published.push(roomId), listen: () => {} },
    });
    expect(await chat.takeOver('room-1')).toBeNull();
    expect(published).toEqual(['room-1']);
  });

  it('frees a room only for its holder: one whose lock expired frees nothing', async () => {
    const released: string[] = [];
    // Locks that always grant (as a Redis lock that expired while its holder went on).
    const chat = createChatService(unconfiguredModel(), {
      locks: {
        claim: async () => ({
          lost: new AbortController().signal,
          release: async () => void released.push(`claim ${released.length}`),
        }),
        isHeld: async () => true,
      },
    });
    const expired = (await chat.begin('room-1'))!;
    const current = (await chat.begin('room-1'))!;
    await chat.end('room-1', expired);
    expect(released).toEqual([]);
    expect(chat.open()).toBe(1);
    await chat.end('room-1', current);
    expect(released).toHaveLength(1);
    expect(chat.open()).toBe(0);
  });
});
