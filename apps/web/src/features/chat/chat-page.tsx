import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { chatStreamMachine } from '@mates/state-machines';
import {
  Button,
  ChatBubble,
  ChatComposer,
  Container,
  EmptyState,
  Flex,
  Heading,
  IconButton,
  Link,
  Spinner,
  Stack,
} from '@mates/ui';
import { useServices } from '../../app/services-context';
import { href } from '../../app/paths';

const RegenerateIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden="true"
  >
    <path d="M21 12a9 9 0 1 1-3-6.7M21 3v6h-6" />
  </svg>
);

/** `/chat-detail?roomId=…`: the conversation, with the reply streaming in as it is written. */
export function ChatPage() {
  const { client, store, platform } = useServices();
  const [params] = useSearchParams();
  const roomId = params.get('roomId') ?? '';
  const queries = useQueryClient();
  const room = useQuery({
    queryKey: ['room', roomId],
    queryFn: ({ signal }) => client.room.roomInfo({ roomId }, { signal }),
    enabled: roomId !== '',
  });
  const chat = useActorRef(chatStreamMachine, { input: { client, roomId, platform } });
  const busy = useSelector(chat, (state) => state.hasTag('busy'));
  const reply = useSelector(chat, (state) => state.context);
  const finished = useSelector(
    chat,
    (state) => state.matches('done') || state.matches('failed') || state.matches('aborted'),
  );

  // Once a reply ends, the saved messages are the truth again; benefits follow reply-end.
  useEffect(() => {
    if (!finished) return;
    if (reply.benefits) store.trigger.benefitsChanged({ benefits: reply.benefits });
    void queries.invalidateQueries({ queryKey: ['room', roomId] });
  }, [finished, reply.benefits, queries, roomId, store]);

  if (!roomId)
    return <EmptyState title="No chat open" description="Start one from a mate's page." />;
  if (room.isPending) return <Spinner label="Loading chat" />;
  if (room.isError)
    return (
      <EmptyState
        tone="error"
        title="This chat could not be loaded"
        description={room.error.message}
        action={<Button onClick={() => room.refetch()}>Try again</Button>}
      />
    );

  const { mate, messages } = room.data;
  const shownMessages =
    busy && reply.request && 'regenerate' in reply.request && reply.request.regenerate
      ? messages.slice(0, -1)
      : messages;
  const lastMate = [...messages].reverse().find((message) => message.role === 'mate');
  return (
    <Container>
      <Stack gap={4}>
        <Flex justify="between" align="center">
          <Link href={href('/detail', { mateId: mate.mateId })}>← {mate.name}</Link>
          <Heading as="h1" size={1}>
            {mate.name}
          </Heading>
        </Flex>
        <div role="log" aria-label="Conversation" aria-live="polite">
          <Stack gap={3}>
            {shownMessages.map((message) => (
              <ChatBubble
                key={message.messageId}
                role={message.role}
                speaker={message.role === 'mate' ? mate.name : 'You'}
                content={message.content}
                status={message.status}
                edited={message.editedAt !== null}
                actions={
                  message.messageId === lastMate?.messageId && !busy ? (
                    <IconButton
                      label="Regenerate reply"
                      icon={<RegenerateIcon />}
                      size="small"
                      onClick={() => chat.send({ type: 'REGENERATE' })}
                    />
                  ) : undefined
                }
              />
            ))}
            {busy &&
              reply.request &&
              'content' in reply.request &&
              reply.request.content &&
              !messages.some((m) => m.messageId === reply.userMessage?.messageId) && (
                <ChatBubble role="user" speaker="You" content={reply.request.content} />
              )}
            {(busy || (!finished && reply.replyText)) && (
              <ChatBubble
                role="mate"
                speaker={mate.name}
                content={reply.replyText || '…'}
                streaming
              />
            )}
          </Stack>
        </div>
        <ChatComposer
          streaming={busy}
          onSend={(content) => chat.send({ type: 'SEND', content })}
          onStop={() => chat.send({ type: 'ABORT' })}
        />
      </Stack>
    </Container>
  );
}
