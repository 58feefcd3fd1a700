import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branch, Message, RoomInfo, VoiceCatalog } from '@mates/api-client';
import { Stack, Text } from '@mates/ui';
import { MessageItem } from './message-item';
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
  const keys = useTurnKeys(reply);
  const common = {
    roomId,
    look,
    actions,
    open,
    voiceCatalog,
    busy,
    branching: false,
    onBranch: () => {},
    onRegenerate: () => {},
    onContinue: () => {},
    onChanged: () => {},
    onSaved: () => {},
  };
  /** A message drawn from the stream, not yet read from the room. */
  const pendingItem = (
    key: string,
    message: Partial<Message> & Pick<Message, 'messageId' | 'role' | 'content'>,
    streaming = false,
  ) => (
    <MessageItem
      key={key}
      {...common}
      message={{ ...DRAWN, roomId, ...message }}
      content={message.content}
      canAct={false}
      isLastMate={false}
      isLastReply={false}
      pending
      streaming={streaming}
    />
  );
  const streaming = !catchingUp && !lastUnread;
  const deletesLater = textAfterYours(visible.shown);
  return (
    <div ref={logRef} role="log" aria-label={t('chat.conversation')} aria-live="polite">
      <Stack gap={3}>
        {look.group && visible.shown.length === 0 && !busy && (
          <Text tone="muted" size={2} style={{ textAlign: 'center' }}>
            {t('group.empty')}
          </Text>
        )}
        {/* One list, each message under one key from the moment it is drawn (sent, streamed)
            to its saved self: its nodes stay, and the live log does not read it out again. */}
        {[
          ...visible.shown.flatMap((message) => [
            // A note (a mate joined, or left) is an entry of its own before its message: it
            // keeps its key wherever it is drawn, and the live log does not read it again.
            ...(notes.before.get(message.messageId) ?? []).map((note) => (
              <GroupNoteLine key={note.key} note={note} />
            )),
            <MessageItem
              key={keys.of(message.messageId)}
              {...common}
              message={message}
              content={
                catchingUp && message.messageId === reply.replyMessageId
                  ? reply.replyText
                  : message.content
              }
              canAct={open && !busy}
              isLastMate={message.messageId === visible.lastMate?.messageId}
              unanswered={!look.group && message.messageId === visible.unanswered?.messageId}
              focusRegenerate={
                actions.regenerated !== null && actions.regenerated !== message.messageId
              }
              isLastReply={message.messageId === visible.lastReply?.messageId}
              deletesLater={deletesLater.get(message.messageId) ?? 0}
              highlighted={message.messageId === highlighted}
              {...(forks?.has(message.messageId) ? { branches: forks.get(message.messageId) } : {})}
              branching={message.messageId === branchingFrom}
              onBranch={() => onBranch(message.messageId)}
              onRegenerate={() => {
                forgetVoice(visible.lastMate?.messageId);
                actions.regenerating(message.messageId);
                stopped.stopWaiting();
                chat.send({ type: 'REGENERATE' });
              }}
              onContinue={() => {
                // The editor's button went with it: once the new reply is written, its
                // Regenerate button takes the focus, as after a regeneration.
                actions.regenerating(message.messageId);
                stopped.stopWaiting();
                chat.send({ type: 'REGENERATE', fromMessageId: message.messageId });
              }}
              onChanged={() => {
                // Another version chosen: the stopped text is no longer what the reply says.
                forgetVoice(message.messageId);
                stopped.stopWaiting();
              }}
              onSaved={() => {
                forgetVoice(message.messageId);
                stopped.stopWaiting();
              }}
            />,
          ]),
          ...notes.after.map((note) => <GroupNoteLine key={note.key} note={note} />),
          sending &&
            pendingItem(keys.user, {
              ...reply.userMessage,
              messageId: reply.userMessage?.messageId ?? keys.user,
              role: 'user',
              content: sending,
            }),
          // In a group, the replies this turn finished are saved, but shown from the stream
          // until the room is read again once the turn is over.
          ...turnReplies.map((done) =>
            pendingItem(keys.of(done.messageId), {
              messageId: done.messageId,
              role: 'mate',
              content: done.text,
              ...(done.speakerId ? { speakerId: done.speakerId } : {}),
            }),
          ),
          ((busy && !waiting) ||
            (!finished && reply.replyText) ||
            lastUnread ||
            (catchingUp && !savedReply)) &&
            pendingItem(
              keys.reply,
              {
                messageId: reply.replyMessageId ?? keys.reply,
                role: 'mate',
                content: reply.replyText || '…',
                ...(reply.speakerId ? { speakerId: reply.speakerId } : {}),
              },
              streaming,
            ),
        ]}
      </Stack>
    </div>
  );
}

/** What a message drawn from the stream holds besides its words. */
const DRAWN = {
  status: 'complete',
  createdAt: '',
  editedAt: null,
  image: null,
} satisfies Partial<Message>;

/**
 * Keys that stay with a message from the moment it is drawn to its saved self. The message
 * being sent and each reply being written are keyed by their turn and place in it before the
 * server names them (`user`, `reply`); once it does, their ids keep those keys (`of`), for as
 * long as the conversation is on screen.
 */
function useTurnKeys(reply: ReplyStream['reply']) {
  const [kept, setKept] = useState(() => ({
    request: reply.request,
    turn: 0,
    named: new Map<string, string>() as ReadonlyMap<string, string>,
  }));
  let next = kept;
  if (reply.request !== next.request)
    next = { ...next, request: reply.request, turn: next.turn + 1 };
  const user = `turn-${next.turn}-user`;
  const replyKey = (index: number) => `turn-${next.turn}-reply-${index}`;
  const name = (messageId: string | null | undefined, key: string) => {
    if (messageId && !next.named.has(messageId))
      next = { ...next, named: new Map(next.named).set(messageId, key) };
  };
  name(reply.userMessage?.messageId, user);
  reply.replies.forEach((done, index) => name(done.messageId, replyKey(index)));
  name(reply.replyMessageId, replyKey(reply.replies.length));
  // Kept for the next render: what this one learnt (React renders again before painting).
  if (next !== kept) setKept(next);
  const { named } = next;
  return {
    user,
    reply: replyKey(reply.replies.length),
    of: (messageId: string) => named.get(messageId) ?? messageId,
  };
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

/**
 * For each message with a message of the person's after it, how many text messages come after
 * it: what answering it again deletes (pictures stay), which the editor asks about first. The
 * replies right after the newest of the person's messages alone are no loss worth asking about:
 * they answered what is being changed.
 */
function textAfterYours(shown: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  let after = 0;
  let yoursAfter = false;
  for (let at = shown.length - 1; at >= 0; at -= 1) {
    const message = shown[at]!;
    if (yoursAfter) counts.set(message.messageId, after);
    if (message.image) continue;
    after += 1;
    if (message.role === 'user') yoursAfter = true;
  }
  return counts;
}
