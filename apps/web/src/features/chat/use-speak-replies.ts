import { useEffect, useRef } from 'react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import type { VoiceCatalog } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { useVoicePlayer } from '../../components/voice/voice-player';
import type { ReplyStream } from './use-reply-stream';

/**
 * "Speak replies aloud": a reply that ended whole is played once, as soon as it is complete.
 * `speakReplies` is the person's choice; `changeSpeakReplies` sets it.
 */
export function useSpeakReplies(reply: ReplyStream['reply'], voiceCatalog: VoiceCatalog | null) {
  const { store } = useServices();
  const { actor: voice } = useVoicePlayer();
  const speakReplies = useStoreSelector(store, (state) => state.context.speakReplies);
  const spokenReply = useRef<string | null>(null);
  const replyId = reply.ended ? reply.replyMessageId : null;
  const speaks = speakReplies && voiceCatalog !== null;
  useEffect(() => {
    if (!speaks || !replyId || spokenReply.current === replyId) return;
    spokenReply.current = replyId;
    voice.send({ type: 'PLAY', messageId: replyId });
  }, [speaks, replyId, voice]);
  const changeSpeakReplies = (on: boolean) => {
    // Turning it on speaks the replies to come, not the one already read.
    spokenReply.current = replyId;
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
