import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError, type SpeechLink } from '@mates/api-client';
import { audioPlaybackMachine, type AudioPlayer } from './audio-playback-machine';
import { SPEECH_LINK_MARGIN_MS } from './constants';

const HOUR = 3_600_000;

/** A player that records what it was asked to play and lets the test end or break it. */
function fakePlayer() {
  const played: string[] = [];
  const stopped: string[] = [];
  let current: { url: string; onEnded: () => void; onError: (error: unknown) => void } | null =
    null;
  const player: AudioPlayer = {
    play: (url, handlers) => {
      played.push(url);
      const mine = { url, ...handlers };
      current = mine;
      return () => {
        stopped.push(url);
        if (current === mine) current = null;
      };
    },
  };
  return {
    player,
    played,
    stopped,
    end: () => current?.onEnded(),
    fail: (error: unknown) => current?.onError(error),
  };
}

function setup(answer?: (payload: { messageId: string; voice?: string }) => Promise<SpeechLink>) {
  let now = Date.parse('2026-11-23T12:00:00.000Z');
  const calls: { messageId: string; voice?: string }[] = [];
  const charged = new Set<string>();
  const link = vi.fn(async (payload: { messageId: string; voice?: string }) => {
    calls.push(payload);
    if (answer) return answer(payload);
    const first = !charged.has(payload.messageId);
    charged.add(payload.messageId);
    return {
      url: `https://mates.test/api/voice/clip?m=${payload.messageId}&n=${calls.length}`,
      expiresAt: new Date(now + HOUR).toISOString(),
      voice: payload.voice ?? 'embedded-slt',
      charged: first ? 1 : 0,
    };
  });
  const fake = fakePlayer();
  const actor = createActor(audioPlaybackMachine, {
    input: { client: { speech: { link } } as never, player: fake.player, now: () => now },
  });
  const charges: { messageId: string; coins: number }[] = [];
  actor.on('charged', ({ messageId, coins }) => charges.push({ messageId, coins }));
  actor.start();
  return {
    actor,
    calls,
    charges,
    ...fake,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('audioPlaybackMachine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the link, plays it, and goes back to idle when the audio ends', async () => {
    const { actor, calls, played, end, charges } = setup();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.messageId).toBe('msg-2');
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
    expect(calls).toEqual([{ messageId: 'msg-2' }]);
    expect(played).toEqual(['https://mates.test/api/voice/clip?m=msg-2&n=1']);
    expect(charges).toEqual([{ messageId: 'msg-2', coins: 1 }]);
    end();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.messageId).toBeNull();
  });

  it('plays one message at a time: a second PLAY stops the first', async () => {
    const { actor, played, stopped } = setup();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    actor.send({ type: 'PLAY', messageId: 'msg-4', voice: 'embedded-rms' });
    expect(stopped).toEqual(['https://mates.test/api/voice/clip?m=msg-2&n=1']);
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
    expect(actor.getSnapshot().context).toMatchObject({
      messageId: 'msg-4',
      voice: 'embedded-rms',
    });
    expect(played).toHaveLength(2);
  });

  it("plays a link just given even when this device's clock says it has expired", async () => {
    // A clock set hours ahead (or a link given for less than the margin): the link is not kept
    // for next time, but the one just asked for is played, not a crash of the page.
    const { actor, played } = setup(async (payload) => ({
      url: `https://mates.test/${payload.messageId}`,
      expiresAt: '2026-11-23T11:00:00.000Z',
      voice: 'embedded-slt',
      charged: 0,
    }));
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    expect(played).toEqual(['https://mates.test/msg-2']);
    expect(actor.getSnapshot().value).toBe('playing');
  });

  it('a PLAY while a link is loading drops that link and plays the newer message', async () => {
    let release: (() => void) | null = null;
    const { actor, played } = setup(
      (payload) =>
        new Promise((resolve) => {
          const answer = () =>
            resolve({
              url: `https://mates.test/${payload.messageId}`,
              expiresAt: '2026-11-23T13:00:00.000Z',
              voice: 'embedded-slt',
              charged: 0,
            });
          if (payload.messageId === 'msg-2') release = answer;
          else answer();
        }),
    );
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    actor.send({ type: 'PLAY', messageId: 'msg-4' });
    await settle();
    release!();
    await settle();
    expect(played).toEqual(['https://mates.test/msg-4']);
    expect(actor.getSnapshot().context.messageId).toBe('msg-4');
  });

  it('STOP stops the audio and leaves nothing playing', async () => {
    const { actor, stopped, end } = setup();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    actor.send({ type: 'STOP' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(stopped).toHaveLength(1);
    end(); // a late end of the stopped audio changes nothing
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('reuses a kept link until it nearly expires, then asks again', async () => {
    const { actor, calls, played, end, advance, charges } = setup();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    end();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    expect(actor.getSnapshot().value).toBe('playing');
    expect(calls).toHaveLength(1);
    expect(played).toHaveLength(2);
    end();
    advance(HOUR - SPEECH_LINK_MARGIN_MS + 1);
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    expect(actor.getSnapshot().value).toBe('loading');
    await settle();
    expect(calls).toHaveLength(2);
    expect(charges).toHaveLength(1); // the second link was free
  });

  it('FORGET drops the kept link of an edited message', async () => {
    const { actor, calls, end } = setup();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    end();
    actor.send({ type: 'FORGET', messageId: 'msg-2' });
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    expect(calls).toHaveLength(2);
  });

  it('a refused link ends in error with the reason, until the next PLAY', async () => {
    const refusal = new ApiError('You do not have enough gold coins to hear this message.', {
      code: 5007,
      method: 'POST',
      path: '/speech/link',
      status: 200,
    });
    let refuse = true;
    const { actor, played } = setup(async (payload) => {
      if (refuse) throw refusal;
      return {
        url: `https://mates.test/${payload.messageId}`,
        expiresAt: '2026-11-23T13:00:00.000Z',
        voice: 'embedded-slt',
        charged: 1,
      };
    });
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context).toMatchObject({ messageId: 'msg-2', error: refusal });
    expect(played).toEqual([]);
    refuse = false;
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a player failure ends in error and the next PLAY asks for a fresh link', async () => {
    const { actor, calls, fail } = setup();
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    fail(new Error('MEDIA_ERR_SRC_NOT_SUPPORTED'));
    expect(actor.getSnapshot().value).toBe('error');
    actor.send({ type: 'PLAY', messageId: 'msg-2' });
    await settle();
    expect(calls).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('playing');
  });

  it('QUEUE plays at once when nothing plays, else after what plays ends, in order', async () => {
    const { actor, calls, played, stopped, end } = setup();
    actor.send({ type: 'QUEUE', messageId: 'msg-2' });
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
    // Two more while the first plays: neither cuts it.
    actor.send({ type: 'QUEUE', messageId: 'msg-3' });
    actor.send({ type: 'QUEUE', messageId: 'msg-4', voice: 'embedded-kal' });
    await settle();
    expect(actor.getSnapshot().context).toMatchObject({
      messageId: 'msg-2',
      queue: [{ messageId: 'msg-3' }, { messageId: 'msg-4', voice: 'embedded-kal' }],
    });
    expect(stopped).toEqual([]);
    end();
    await settle();
    expect(actor.getSnapshot().context.messageId).toBe('msg-3');
    expect(actor.getSnapshot().value).toBe('playing');
    end();
    await settle();
    expect(actor.getSnapshot().context).toMatchObject({
      messageId: 'msg-4',
      voice: 'embedded-kal',
    });
    end();
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls.map((call) => call.messageId)).toEqual(['msg-2', 'msg-3', 'msg-4']);
    expect(played).toHaveLength(3);
    expect(stopped).toHaveLength(3);
  });

  it('PLAY and STOP drop what was queued; FORGET drops the message from the queue', async () => {
    const { actor, calls, end } = setup();
    actor.send({ type: 'QUEUE', messageId: 'msg-2' });
    actor.send({ type: 'QUEUE', messageId: 'msg-3' });
    actor.send({ type: 'QUEUE', messageId: 'msg-4' });
    actor.send({ type: 'FORGET', messageId: 'msg-3' });
    await settle();
    expect(actor.getSnapshot().context.queue).toEqual([{ messageId: 'msg-4' }]);
    // The person plays another message themselves: what waited is not spoken after it.
    actor.send({ type: 'PLAY', messageId: 'msg-9' });
    await settle();
    expect(actor.getSnapshot().context.queue).toEqual([]);
    end();
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'QUEUE', messageId: 'msg-5' });
    actor.send({ type: 'QUEUE', messageId: 'msg-6' });
    actor.send({ type: 'STOP' });
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.queue).toEqual([]);
    expect(calls.map((call) => call.messageId)).toEqual(['msg-2', 'msg-9', 'msg-5']);
  });

  it('a queued message that cannot be played ends the queue in error, saying why', async () => {
    const refusal = new ApiError('You do not have enough gold coins to hear this message.', {
      code: 5007,
      method: 'POST',
      path: '/speech/link',
      status: 200,
    });
    const { actor, calls, end } = setup(async (payload) => {
      if (payload.messageId === 'msg-3') throw refusal;
      return {
        url: `https://mates.test/${payload.messageId}`,
        expiresAt: '2026-11-23T13:00:00.000Z',
        voice: 'embedded-slt',
        charged: 0,
      };
    });
    actor.send({ type: 'QUEUE', messageId: 'msg-2' });
    actor.send({ type: 'QUEUE', messageId: 'msg-3' });
    actor.send({ type: 'QUEUE', messageId: 'msg-4' });
    await settle();
    end();
    await settle();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context).toMatchObject({
      messageId: 'msg-3',
      error: refusal,
      queue: [],
    });
    expect(calls.map((call) => call.messageId)).toEqual(['msg-2', 'msg-3']);
    // Queued again later (the next reply), it plays.
    actor.send({ type: 'QUEUE', messageId: 'msg-5' });
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
  });

  it('CLEAR_QUEUE drops what waits and lets what plays finish', async () => {
    const { actor, stopped, end } = setup();
    actor.send({ type: 'QUEUE', messageId: 'msg-2' });
    actor.send({ type: 'QUEUE', messageId: 'msg-3' });
    await settle();
    actor.send({ type: 'CLEAR_QUEUE' });
    await settle();
    expect(actor.getSnapshot().value).toBe('playing');
    expect(stopped).toEqual([]);
    end();
    await settle();
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
