import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Container, SideView } from '@mates/ui';
import { VoiceProvider } from '../../components/voice/voice-player';
import { useSignedIn } from '../../components/sign-in-gate';
import { ChatList } from './chat-list';
import { Conversation } from './conversation';

/**
 * `/chat-detail?roomId=…`: the conversation, the reply streaming in as it is written;
 * `&messageId=…` (a search result) opens it at that message.
 */
function ChatScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const roomId = params.get('roomId') ?? '';
  const messageId = params.get('messageId');
  const signedIn = useSignedIn();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // One conversation per room: opening another room (a new chat) starts afresh. The person's
  // chats are beside it on wide screens, in a drawer on phones.
  const conversation = (
    <Conversation
      key={roomId}
      roomId={roomId}
      {...(messageId ? { messageId } : {})}
      signedIn={signedIn}
      onOpenChats={() => setDrawerOpen(true)}
    />
  );
  return (
    <Container>
      {signedIn ? (
        <SideView
          side={<ChatList roomId={roomId} onChoose={() => setDrawerOpen(false)} />}
          sideLabel={t('recent.side')}
          drawerOpen={drawerOpen}
          onDrawerOpenChange={setDrawerOpen}
          closeLabel={t('auth.close')}
        >
          {conversation}
        </SideView>
      ) : (
        conversation
      )}
    </Container>
  );
}

/**
 * The screen with its own voice player: the player (and XState's runtime) loads with the
 * screens that speak, never with the first screen; leaving the screen silences it.
 */
export function ChatPage() {
  return (
    <VoiceProvider>
      <ChatScreen />
    </VoiceProvider>
  );
}
