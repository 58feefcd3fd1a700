import { Fragment, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branch, Message, RoomInfo, VoiceCatalog } from '@mates/api-client';
import { ChatBubble, Stack, Text } from '@mates/ui';
import { MessageItem, WriterLabel } from './message-item';
import { placeGroupNotes, type GroupNote } from './group-notes';
import { useBubbleLook } from './use-bubble-look';
import { useForgetVoice } from './use-speak-replies';
import type { MessageActionsState } from './use-message-actions';
import type { ReplyStream } from './use-reply-stream';
import type { StoppedReply } from './use-stopped-reply';
import type { visibleMessages } from './visible-messages';

/** Props of {@link MessageLog}. */
export interface MessageLogProps {
  logRef: RefObject<HTMLDivElement | null>;
  roomId: string;
  room: Pick<RoomInfo, 'mate' | 'persona' | 'readOnly'> & {
    room?: Pick<RoomInfo['room'], 'group' | 'createdAt'>;
  };
  /** Whether the conversation is loaded from its first message (no earlier page to load). */
  fromStart?: boolean;
  /** Every message loaded, oldest first. */
  messages: Message[];
  visible: ReturnType<typeof visibleMessages>;
  stream: ReplyStream;
  stopped: StoppedReply;
  actions: MessageActionsState;
  voiceCatalog: VoiceCatalog | null;
  /** The message a link led to (a memory's source), marked; else `null`. */
  highlighted?: string | null;
  /** The paths of the chat that meet at a message, by its id (two or more each). */
  forks?: ReadonlyMap<string, readonly Branch[]>;
  /** The message a new path is being made from ("Branch from here"); else `null`. */
  branchingFrom?: string | null;
  /** "Branch from here" on a message. */
  onBranch: (messageId: string) => void;
}

/**
 * The conversation, a polite live region: its messages, then the message being sent and the
 * reply streaming in (or what was shown of a stopped one, until it is saved).
 */
export function MessageLog({
  logRef,
  roomId,
  room,
  messages,
  visible,
  stream,
  stopped,
  actions,
  voiceCatalog,
  highlighted = null,
  forks,
  branchingFrom = null,
  onBranch,
  fromStart = true,
}: MessageLogProps) {
  const { t } = useTranslation();
  const look = useBubbleLook(room);
  const forgetVoice = useForgetVoice();
  const { chat, busy, waiting, finished, settling, reply } = stream;
  const { catchingUp, savedReply } = stopped;
  const open = !room.readOnly;
  // What the stream wrote that the room's messages do not hold yet: drawn from the stream while
  // the turn runs and until the room is read again (never dropped for a moment in between).
  const unread = (messageId: string | null | undefined) =>
    !!messageId && !messages.some((m) => m.messageId === messageId);
  const sending =
    busy &&
    reply.request &&
    'content' in reply.request &&
    reply.request.content &&
    !messages.some((m) => m.messageId === reply.userMessage?.messageId)
      ? reply.request.content
      : settling && reply.userMessage && unread(reply.userMessage.messageId)
        ? reply.userMessage.content
        : null;
  // In a group, the replies this turn finished are saved, but shown from the stream until the
  // room is read again once the turn is over.
  const turnReplies =
    busy || settling ? reply.replies.filter((done) => unread(done.messageId)) : [];
  const lastUnread = settling && reply.replyText !== '' && unread(reply.replyMessageId);
  const notes = placeGroupNotes(look.group, room.room?.createdAt ?? '', visible.shown, fromStart);
  // Until its reply-start names the writer, a group's reply is the group's.
  const writing = reply.speakerId ? look.speakerOf(reply.speakerId) : null;
  return (
    <div ref={logRef} role="log" aria-label={t('chat.conversation')} aria-live="polite">
      <Stack gap={3}>
        {look.group && visible.shown.length === 0 && !busy && (
          <Text tone="muted" size={2} style={{ textAlign: 'center' }}>
            {t('group.empty')}
          </Text>
        )}
        {visible.shown.map((message) => (
          <Fragment key={message.messageId}>
            {notes.before.get(message.messageId)?.map((note) => (
              <GroupNoteLine key={note.key} note={note} />
            ))}
            <MessageItem
              roomId={roomId}
              message={message}
              content={
                catchingUp && message.messageId === reply.replyMessageId
                  ? reply.replyText
                  : message.content
              }
              look={look}
              actions={actions}
              canAct={open && !busy}
              open={open}
              isLastMate={message.messageId === visible.lastMate?.messageId}
              isLastReply={message.messageId === visible.lastReply?.messageId}
              voiceCatalog={voiceCatalog}
              highlighted={message.messageId === highlighted}
              busy={busy}
              {...(forks?.has(message.messageId) ? { branches: forks.get(message.messageId) } : {})}
              branching={message.messageId === branchingFrom}
              onBranch={() => onBranch(message.messageId)}
              onRegenerate={() => {
                forgetVoice(visible.lastMate?.messageId);
                chat.send({ type: 'REGENERATE' });
              }}
              onContinue={() => chat.send({ type: 'REGENERATE', fromMessageId: message.messageId })}
              onChanged={() => forgetVoice(message.messageId)}
              onSaved={() => {
                forgetVoice(message.messageId);
                stopped.stopWaiting();
              }}
            />
          </Fragment>
        ))}
        {notes.after.map((note) => (
          <GroupNoteLine key={note.key} note={note} />
        ))}
        {sending && (
          <ChatBubble
            role="user"
            speaker={look.own.name}
            content={sending}
            labels={look.own.labels}
            avatar={look.own.face}
          />
        )}
        {turnReplies.map((done) => {
          const writer = look.speakerOf(done.speakerId);
          return (
            <ChatBubble
              key={done.messageId}
              role="mate"
              speaker={writer?.name ?? look.mate.name}
              content={done.text}
              labels={look.mate.labels}
              {...(writer
                ? { label: <WriterLabel writer={writer} /> }
                : { avatar: look.mate.face })}
            />
          );
        })}
        {((busy && !waiting) ||
          (!finished && reply.replyText) ||
          lastUnread ||
          (catchingUp && !savedReply)) && (
          <ChatBubble
            role="mate"
            speaker={writing?.name ?? look.group?.name ?? look.mate.name}
            content={reply.replyText || '…'}
            labels={look.mate.labels}
            {...(writing
              ? { label: <WriterLabel writer={writing} writing={!catchingUp && !lastUnread} /> }
              : look.group
                ? {}
                : { avatar: look.mate.face })}
            streaming={!catchingUp && !lastUnread}
          />
        )}
      </Stack>
    </div>
  );
}

/** A line between messages: a mate joined the group, or left it. */
function GroupNoteLine({ note }: { note: GroupNote }) {
  const { t } = useTranslation();
  return (
    <Text tone="muted" size={1} style={{ textAlign: 'center' }}>
      {t(note.kind === 'joined' ? 'group.joined' : 'group.leftNote', { name: note.name })}
    </Text>
  );
}
