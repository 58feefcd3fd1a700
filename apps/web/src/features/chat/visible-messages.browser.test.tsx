import { describe, expect, it } from 'vitest';
import { createImageMessageFixture, createMessageFixture } from '@mates/api-client/msw';
import type { Message } from '@mates/api-client';
import { visibleMessages } from './visible-messages';

// Which message carries "Regenerate reply" or "Ask for a reply", as the server answers them:
// a regeneration writes again the last text reply after the person's last message, and answers
// that message when none follows it. Pictures (a mate's messages too) stay where they are.
const yours = (id: string) => createMessageFixture({ messageId: id, role: 'user', content: id });
const reply = (id: string, more: Partial<Message> = {}) =>
  createMessageFixture({ messageId: id, role: 'mate', content: id, ...more });
const picture = (id: string) => createImageMessageFixture({}, { messageId: id, role: 'mate' });
const idle = {
  busy: false,
  aborted: false,
  settling: false,
  reply: { request: null, replyText: '' },
} as unknown as Parameters<typeof visibleMessages>[1];
const ids = (messages: readonly (Message | undefined)[]) => messages.map((m) => m?.messageId);

describe('the message a reply is asked from', () => {
  it('is the last reply, a picture after it aside', () => {
    const seen = visibleMessages([yours('u1'), reply('m1'), picture('p1')], idle);
    expect(ids([seen.lastMate, seen.unanswered])).toEqual(['m1', undefined]);
  });

  it("is the person's message when the chat ends on it, a picture after it aside", () => {
    for (const messages of [
      [yours('u1'), reply('m1'), yours('u2')],
      [yours('u1'), reply('m1'), yours('u2'), picture('p1')],
    ]) {
      const seen = visibleMessages(messages, idle);
      expect(ids([seen.lastMate, seen.unanswered])).toEqual([undefined, 'u2']);
    }
  });

  it('is theirs after Stop before the first word, while the empty reply is not yet taken back', () => {
    const stopped = {
      ...idle,
      aborted: true,
    } as Parameters<typeof visibleMessages>[1];
    const seen = visibleMessages(
      [yours('u1'), reply('m1'), yours('u2'), reply('m2', { status: 'partial', content: '' })],
      stopped,
    );
    expect(ids(seen.shown)).toEqual(['u1', 'm1', 'u2']);
    expect(ids([seen.lastMate, seen.unanswered])).toEqual([undefined, 'u2']);
  });

  it('hides only the reply being written again, not a picture after it nor the person’s message', () => {
    const regenerating = {
      ...idle,
      busy: true,
      reply: { request: { roomId: 'room-1', regenerate: true }, replyText: '' },
    } as unknown as Parameters<typeof visibleMessages>[1];
    expect(
      ids(visibleMessages([yours('u1'), reply('m1'), picture('p1')], regenerating).shown),
    ).toEqual(['u1', 'p1']);
    expect(
      ids(visibleMessages([yours('u1'), reply('m1'), yours('u2')], regenerating).shown),
    ).toEqual(['u1', 'm1', 'u2']);
  });
});
