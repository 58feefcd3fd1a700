import { useEffect, useRef } from 'react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import type { VoiceCatalog } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { useVoicePlayer } from '../../components/voice/voice-player';
import type { ReplyStream } from './use-reply-stream';

/** The ids of this turn's replies that ended whole, in the order they were written. */
function endedReplies(reply: ReplyStream['reply']): string[] {
  const ids = reply.replies.map((done) => done.messageId);
  // The current reply, once it ended; a group's next `reply-start` moves it into `replies`.
  if (reply.ended && reply.replyMessageId && !ids.includes(reply.replyMessageId))
    ids.push(reply.replyMessageId);
  return ids;
}

/**
 * "Speak replies aloud": a reply that ended whole is played once, as soon as it is complete. A
 * group's speakers are played in turn, each after the last has finished, however close their
 * replies ended (the voice player's queue). `speakReplies` is the person's choice;
 * `changeSpeakReplies` sets it (turning it off drops the replies still waiting to be heard).
 */
export function useSpeakReplies(reply: ReplyStream['reply'], voiceCatalog: VoiceCatalog | null) {
  const { store } = useServices();
  const { actor: voice } = useVoicePlayer();
  const speakReplies = useStoreSelector(store, (state) => state.context.speakReplies);
  // Every reply queued (or passed over) so far: each is spoken once.
  const spoken = useRef(new Set<string>());
  const ended = endedReplies(reply);
  const endedKey = ended.join(' ');
  const speaks = speakReplies && voiceCatalog !== null;
  useEffect(() => {
    if (!speaks) return;
    for (const messageId of endedKey.split(' ')) {
      if (!messageId || spoken.current.has(messageId)) continue;
      spoken.current.add(messageId);
      voice.send({ type: 'QUEUE', messageId });
    }
  }, [speaks, endedKey, voice]);
  const changeSpeakReplies = (on: boolean) => {
    // Turning it on speaks the replies to come, not those already read.
    for (const messageId of ended) spoken.current.add(messageId);
    if (!on) voice.send({ type: 'CLEAR_QUEUE' });
    store.trigger.speakRepliesChanged({ speakReplies: on });
  };
  return { speakReplies, changeSpeakReplies };
}

/** Forgets a message's kept audio (stopping it if it plays): it no longer says what it said. */
export function useForgetVoice() {
  const { actor: voice } = useVoicePlayer();
  return (messageId: string | undefined) => {
    if (!messageId) return;
    if (voice.getSnapshot().context.messageId === messageId) voice.send({ type: 'STOP' });
    voice.send({ type: 'FORGET', messageId });
  };
}
