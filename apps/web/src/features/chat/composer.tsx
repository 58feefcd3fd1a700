import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { VoiceCatalog } from '@mates/api-client';
import { ChatComposer } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { DictationStatus, MicButton, useDictation } from '../../components/voice/dictation';
import { useDraft } from './use-draft';
import { useSayFailure } from './use-say-failure';
import type { ReplyStream } from './use-reply-stream';

/**
 * The message box under the conversation, with its own state: what is typed re-renders only
 * the box, not every message of a long conversation.
 */
export function Composer({
  chat,
  roomId,
  busy,
  voiceCatalog,
  onSend,
}: {
  chat: ReplyStream['chat'];
  roomId: string;
  busy: boolean;
  voiceCatalog: VoiceCatalog | null;
  /** After a message is sent: whoever sends wants to see their message and the reply. */
  onSend: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [draft, setDraft, sent] = useDraft(chat, roomId);
  const dictation = useDictation({ catalog: voiceCatalog, text: draft, onText: setDraft });
  const sayFailure = useSayFailure();
  const inspiration = useMutation({
    mutationFn: () => client.girl.chatGetInspiration({ roomId }),
    // Ideas that could not come are said, not left as silence after the press.
    onError: sayFailure,
  });
  const send = (content: string) => {
    inspiration.reset();
    sent(content);
    chat.send({ type: 'SEND', content });
    onSend();
  };
  return (
    <>
      <ChatComposer
        value={draft}
        onValueChange={setDraft}
        tools={<MicButton dictation={dictation} />}
        streaming={busy}
        onSend={send}
        autoFocus
        onStop={() => chat.send({ type: 'ABORT' })}
        onInspire={() => inspiration.mutate()}
        suggestions={inspiration.data?.suggestions ?? []}
        labels={{
          message: t('chat.message'),
          placeholder: t('chat.placeholder'),
          send: t('chat.send'),
          stop: t('chat.stop'),
          inspire: t('chat.inspire'),
          suggestions: t('chat.suggestions'),
          waiting: t('chat.composerWaiting'),
        }}
      />
      <DictationStatus dictation={dictation} />
    </>
  );
}
