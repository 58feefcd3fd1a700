import type { Branch, Message, VoiceCatalog } from '@mates/api-client';
import { useTranslation } from 'react-i18next';
import { ChatBubble, Flex, SpeakerLabel, Text } from '@mates/ui';
import { MessageVoiceButton } from '../../components/voice/voice-parts';
import { BranchSwitch } from './branch-switch';
import { MessageActions, MessageEditor, SwipeControls } from './message-parts';
import { PictureMessage } from './picture-parts';
import type { BubbleLook } from './use-bubble-look';
import type { MessageActionsState } from './use-message-actions';
import { messageElementId } from './use-jump-to-message';

/** Props of {@link MessageItem}. */
export interface MessageItemProps {
  roomId: string;
  message: Message;
  /** What the bubble says: the saved text, or what was shown of a stopped reply being saved. */
  content: string;
  look: BubbleLook;
  actions: MessageActionsState;
  /** Whether the person may change the chat (not read-only, no reply being written). */
  canAct: boolean;
  /** Whether the chat can go on (not read-only). */
  open: boolean;
  /** The last reply: it can be regenerated. */
  isLastMate: boolean;
  /** The person's message the chat ends on, in a one-to-one chat: a reply can be asked for. */
  unanswered?: boolean;
  /**
   * A regeneration of the reply before this one ended: if the focus went with the Regenerate
   * button it pressed, this reply's takes it.
   */
  focusRegenerate?: boolean;
  /** The last text reply: its versions can be chosen. */
  isLastReply: boolean;
  voiceCatalog: VoiceCatalog | null;
  /** Marked: the message a link led to (a memory's source). */
  highlighted?: boolean;
  /** While a reply is written, messages have no buttons (the branch switcher stays). */
  busy: boolean;
  /** The paths of the chat that meet at this message, when there are two or more. */
  branches?: readonly Branch[];
  /** A new path of the chat is being made from this message. */
  branching: boolean;
  /** "Branch from here". */
  onBranch: () => void;
  /** Asks for the last reply again. */
  onRegenerate: () => void;
  /** Asks for a new reply to this (edited) message: later messages go. */
  onContinue: () => void;
  /** How many messages {@link MessageItemProps.onContinue} deletes that the person is asked about. */
  deletesLater?: number;
  /** The message now says something else (edited, another version): its kept audio goes. */
  onChanged: () => void;
  /** The message's edit was kept. */
  onSaved: () => void;
  /**
   * Drawn from the stream, not yet read from the room (the message being sent, a reply being
   * written): no time, no buttons, no link target. The same item, under the same key, becomes
   * the saved message: its nodes stay, and the live log does not read it out again.
   */
  pending?: boolean;
  /** The reply is still being written: a caret, and busy for screen readers until it is whole. */
  streaming?: boolean;
}

/** One message of the conversation: a picture, the message's editor, or its bubble. */
export function MessageItem(props: MessageItemProps) {
  const { roomId, message, look, actions } = props;
  if (message.image)
    return (
      <PictureMessage
        message={message}
        image={message.image}
        mateName={look.mate.name}
        canAct={props.canAct}
        highlighted={props.highlighted ?? false}
        onDelete={() => actions.confirmDelete(message)}
      />
    );
  if (actions.editing === message.messageId)
    return (
      <MessageEditor
        roomId={roomId}
        message={message}
        highlighted={props.highlighted ?? false}
        deletesLater={props.deletesLater ?? 0}
        onDone={() => actions.closeEditor(message.messageId)}
        onSaved={props.onSaved}
        onContinue={() => {
          actions.keepFocusAway();
          props.onContinue();
        }}
      />
    );
  const speaker = message.role === 'mate' ? look.mate : look.own;
  const { pending = false, streaming = false } = props;
  // A reply being written has no writer until its reply-start names one.
  const writer =
    message.role === 'mate' && !(pending && !message.speakerId)
      ? look.speakerOf(message.speakerId)
      : null;
  // Until its reply-start names the writer, a group's reply is the group's, without a face.
  const unnamed = pending && message.role === 'mate' && !writer ? look.group : null;
  return (
    <ChatBubble
      role={message.role}
      speaker={writer?.name ?? unnamed?.name ?? speaker.name}
      content={props.content}
      status={message.status}
      edited={message.editedAt !== null}
      labels={speaker.labels}
      {...(writer
        ? { label: <WriterLabel writer={writer} writing={streaming} /> }
        : unnamed
          ? {}
          : { avatar: speaker.face })}
      streaming={streaming}
      {...(pending
        ? {}
        : { time: look.timeOf(message.createdAt), id: messageElementId(message.messageId) })}
      highlighted={props.highlighted ?? false}
      actions={
        pending ? undefined : message.call?.cut ? (
          <Flex gap={1} align="center" wrap>
            <CallCutMark />
            {props.busy ? branchSwitch(props) : <MessageButtons {...props} />}
          </Flex>
        ) : props.busy ? (
          branchSwitch(props)
        ) : (
          <MessageButtons {...props} />
        )
      }
    />
  );
}

/** A reply the person interrupted in a voice call: what it said before they spoke is kept. */
function CallCutMark() {
  const { t } = useTranslation();
  return (
    <Text as="span" size={1} tone="muted">
      {t('call.cutMark')}
    </Text>
  );
}

/** In a group, who wrote a reply: portrait and name, and a note when it left the group. */
export function WriterLabel({
  writer,
  writing = false,
}: {
  writer: NonNullable<ReturnType<BubbleLook['speakerOf']>>;
  writing?: boolean;
}) {
  const { t } = useTranslation();
  const note = writer.left ? t('group.left') : writing ? t('group.writing') : undefined;
  return <SpeakerLabel name={writer.name} src={writer.src} {...(note ? { note } : {})} />;
}

/** The switcher between the paths that meet at the message, when there are two or more. */
function branchSwitch({ roomId, message, branches }: MessageItemProps) {
  return branches ? (
    <BranchSwitch roomId={roomId} messageId={message.messageId} paths={branches} />
  ) : undefined;
}

/** A message's buttons: its paths, its versions, its voice, regenerate, edit, branch, delete. */
function MessageButtons(props: MessageItemProps) {
  const {
    roomId,
    message,
    actions,
    open,
    isLastMate,
    isLastReply,
    voiceCatalog,
    onRegenerate,
    onChanged,
  } = props;
  return (
    <Flex gap={1} align="center" wrap>
      {branchSwitch(props)}
      {open && isLastReply && (
        <SwipeControls roomId={roomId} message={message} onChosen={onChanged} />
      )}
      {voiceCatalog && message.role === 'mate' && message.content.trim() && (
        <MessageVoiceButton messageId={message.messageId} catalog={voiceCatalog} />
      )}
      <MessageActions
        canRegenerate={open && (isLastMate || (props.unanswered ?? false))}
        {...(props.unanswered ? { regenerateLabel: 'chat.askForReply' as const } : {})}
        onRegenerate={onRegenerate}
        onEdit={() => actions.startEditing(message.messageId)}
        {...(open ? { onBranch: props.onBranch } : {})}
        branching={props.branching}
        onDelete={() => actions.confirmDelete(message)}
        focusEdit={actions.editClosed === message.messageId}
        onEditFocused={actions.editRefocused}
        focusRegenerate={props.focusRegenerate ?? false}
        onRegenerateFocused={actions.regenerateRefocused}
      />
    </Flex>
  );
}
