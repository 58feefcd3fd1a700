import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoomInfo, VoiceCatalog } from '@mates/api-client';
import { Button, Docked, Flex, Stack, Text, WideOnly } from '@mates/ui';
import { Composer } from './composer';
import { GroupControls } from './group-controls';
import type { ReplyStream } from './use-reply-stream';

/** Props of {@link ConversationFooter}. */
export interface ConversationFooterProps {
  roomId: string;
  room: Pick<RoomInfo, 'mate' | 'readOnly'> & { room?: Pick<RoomInfo['room'], 'group'> };
  stream: ReplyStream;
  voiceCatalog: VoiceCatalog | null;
  /** New text came while the reader was scrolled up. */
  unseen: boolean;
  jumpToBottom: () => void;
  /** "Speak replies aloud", when the server speaks. */
  speakSwitch: ReactNode;
  /** The button that opens the picture sheet, when the server draws. */
  pictureButton: ReactNode;
}

/**
 * The bottom of the conversation: what became of the last message (waiting to be sent, no
 * model), the way down to new messages, and the message box, or why this chat cannot go on.
 */
export function ConversationFooter({
  roomId,
  room: { mate, readOnly, room },
  stream,
  voiceCatalog,
  unseen,
  jumpToBottom,
  speakSwitch,
  pictureButton,
}: ConversationFooterProps) {
  const { t } = useTranslation();
  const { chat, busy, waiting, noModel, reply } = stream;
  const group = room?.group;
  return (
    <Docked edge="bottom">
      {/* In the page, empty, before it has something to say (wherever a message can be sent):
          a live region added with its words already in it is not read out by every screen
          reader. */}
      {!readOnly && (
        <div role="status">
          {waiting && reply.waiting && (
            <Flex justify="between" align="center" gap={2} wrap>
              <Text tone="muted">
                {reply.waiting.message} {t('chat.waitingToSend')}
              </Text>
              <Button size="small" variant="soft" onClick={() => chat.send({ type: 'ABORT' })}>
                {t('chat.cancelSending')}
              </Button>
            </Flex>
          )}
          {noModel && (
            <Text tone="muted">{t('chat.noModel', { name: group?.name ?? mate.name })}</Text>
          )}
        </div>
      )}
      {unseen && (
        <Flex justify="center">
          <Button size="small" onClick={jumpToBottom}>
            {t('chat.newMessages')}
          </Button>
        </Flex>
      )}
      {readOnly ? (
        // The server's own sentence, in the caller's language: why this chat cannot go on.
        <Text role="status" tone="muted">
          {readOnly}
        </Text>
      ) : (
        // `data-chat-composer`: where the focus goes when the last message is deleted.
        <Stack gap={2} data-chat-composer="">
          {(pictureButton || voiceCatalog) && (
            // On a phone these are in the header's menu: the conversation keeps the room.
            <WideOnly>
              <Flex justify="between" align="center" gap={3} wrap>
                {speakSwitch ?? <span />}
                {pictureButton}
              </Flex>
            </WideOnly>
          )}
          <Composer
            chat={chat}
            roomId={roomId}
            busy={busy}
            voiceCatalog={voiceCatalog}
            onSend={jumpToBottom}
          />
          {group && <GroupControls group={group} stream={stream} />}
        </Stack>
      )}
    </Docked>
  );
}
