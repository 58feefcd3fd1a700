import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, EmptyState, FillHeight, FillRest, Flex, Switch } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { MemoryPanel } from './memory-panel';
import { BranchesPanel } from './branches-panel';
import { GroupMembersSheet } from './group-members-sheet';
import { forksOf } from './branch-paths';
import { useBranchFrom, useBranches } from './use-branches';
import { useJumpToMessage } from './use-jump-to-message';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError, WayOn } from '../../components/states';
import { useVoiceCatalog } from '../../components/voice/voice-player';
import { roomMessagesQuery } from './api/chat-queries';
import { ConversationFooter } from './conversation-footer';
import { ConversationHeader } from './conversation-header';
import { MessageLog } from './message-log';
import { PictureSheet, useImageModels } from './picture-parts';
import { useConversationScroll } from './use-conversation-scroll';
import { useFocusAfterDelete, useMessageActions } from './use-message-actions';
import { useReplyStream } from './use-reply-stream';
import { useSpeakReplies } from './use-speak-replies';
import { useStoppedReply } from './use-stopped-reply';
import { visibleMessages } from './visible-messages';

/** Props of {@link Conversation}. */
export interface ConversationProps {
  roomId: string;
  /** A message to open the conversation at (a search result led here), loading back to it. */
  messageId?: string;
  onOpenChats: () => void;
  /** Whether the person's chats are there to open (in a drawer on a phone). */
  signedIn: boolean;
}

/** One room's conversation: its header, its messages with the reply streaming in, its box. */
export function Conversation({ roomId, messageId, onOpenChats, signedIn }: ConversationProps) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const room = useInfiniteQuery({ ...roomMessagesQuery(client, roomId), enabled: roomId !== '' });
  const messages = room.data?.pages.toReversed().flatMap((page) => page.messages) ?? [];
  const stream = useReplyStream(roomId);
  const stopped = useStoppedReply(roomId, { messages, dataUpdatedAt: room.dataUpdatedAt }, stream);
  const actions = useMessageActions(roomId, stopped.stopWaiting);
  useFocusAfterDelete(actions, messages);
  const [picturing, setPicturing] = useState(false);
  const imageModels = useImageModels();
  const voiceCatalog = useVoiceCatalog();
  const { speakReplies, changeSpeakReplies } = useSpeakReplies(stream.reply, voiceCatalog);
  const { log, earlier, unseen, jumpToBottom, hasEarlier, fetchingEarlier, loadEarlier } =
    useConversationScroll(room);
  const [remembering, setRemembering] = useState(false);
  // What a jump to a message no longer there says: a memory's source, or the message a link
  // (a search result) led to.
  const goneText = useRef<'memory.messageGone' | 'chat.messageGone'>('memory.messageGone');
  const messageGone = useCallback(
    () => notices.trigger.added({ tone: 'negative', message: t(goneText.current) }),
    [notices, t],
  );
  const jump = useJumpToMessage(room, messages, messageGone);
  const jumpToSource = (sourceId: string) => {
    goneText.current = 'memory.messageGone';
    jump.jumpTo(sourceId);
  };
  useOpenAtMessage(room.isSuccess ? messageId : undefined, (linked) => {
    goneText.current = 'chat.messageGone';
    jump.jumpTo(linked);
  });
  const branches = useBranches(roomId);
  const forks = useMemo(
    () => (branches.data ? forksOf(branches.data.branches, roomId) : undefined),
    [branches.data, roomId],
  );
  const branchFrom = useBranchFrom(roomId);
  const [branchesOpen, setBranchesOpen] = useState(false);
  const [membersOpen, setMembersOpen] = useState(false);

  if (!roomId)
    return (
      <EmptyState
        title={t('chat.missing')}
        description={t('chat.missingText')}
        action={<WayOn to={['/recent-chats', '/']} />}
      />
    );
  if (room.isPending) return <Loading />;
  if (room.isError)
    return <LoadError query={room} title={t('chat.error')} wayOn={['/recent-chats', '/']} />;

  const latest = room.data.pages[0]!;
  const { mate, readOnly } = latest;
  const group = latest.room.group;
  const visible = visibleMessages(messages, stream);
  const speakSwitch = voiceCatalog ? (
    <Switch
      label={t('voice.speakReplies')}
      checked={speakReplies}
      onCheckedChange={changeSpeakReplies}
    />
  ) : null;
  const pictureButton =
    imageModels.length > 0 && !readOnly ? (
      <Button variant="soft" size="small" onClick={() => setPicturing(true)}>
        {t('picture.open')}
      </Button>
    ) : null;
  const { doomed } = actions;
  // The message after the one deleted takes the focus, else the one before it.
  const removing = (messageId: string) => {
    const at = visible.shown.findIndex((message) => message.messageId === messageId);
    const beside = visible.shown[at + 1] ?? visible.shown[at - 1];
    return { messageId, neighbour: at >= 0 && beside ? beside.messageId : null };
  };
  return (
    <>
      <FillHeight>
        <ConversationHeader
          roomId={roomId}
          room={latest}
          signedIn={signedIn}
          onOpenChats={onOpenChats}
          speakSwitch={speakSwitch}
          pictureButton={pictureButton}
          onOpenMemory={() => setRemembering(true)}
          onOpenBranches={() => setBranchesOpen(true)}
          {...(group ? { onOpenMembers: () => setMembersOpen(true) } : {})}
        />
        {hasEarlier && (
          <Flex justify="center">
            <Button
              ref={earlier}
              variant="ghost"
              size="small"
              aria-busy={fetchingEarlier || jump.seeking}
              onClick={loadEarlier}
            >
              {t('chat.earlier')}
            </Button>
          </Flex>
        )}
        <FillRest>
          <MessageLog
            logRef={log}
            roomId={roomId}
            room={latest}
            messages={messages}
            visible={visible}
            stream={stream}
            stopped={stopped}
            actions={actions}
            voiceCatalog={voiceCatalog}
            highlighted={jump.highlighted}
            {...(forks ? { forks } : {})}
            branchingFrom={branchFrom.isPending ? branchFrom.variables : null}
            onBranch={(messageId) => branchFrom.mutate(messageId)}
            fromStart={!hasEarlier}
          />
        </FillRest>
        <ConversationFooter
          roomId={roomId}
          room={latest}
          stream={stream}
          voiceCatalog={voiceCatalog}
          unseen={unseen}
          jumpToBottom={jumpToBottom}
          speakSwitch={speakSwitch}
          pictureButton={pictureButton}
        />
      </FillHeight>
      {imageModels.length > 0 && !readOnly && (
        <PictureSheet
          open={picturing}
          onClose={() => setPicturing(false)}
          roomId={roomId}
          mate={mate}
          lastMessage={visible.lastText}
          models={imageModels}
        />
      )}
      <MemoryPanel
        roomId={roomId}
        mateName={group?.name ?? mate.name}
        group={group}
        canChange={!readOnly}
        open={remembering}
        onClose={() => setRemembering(false)}
        onJump={jumpToSource}
      />
      <BranchesPanel
        roomId={roomId}
        mateName={mate.name}
        groupName={group?.name}
        open={branchesOpen}
        onClose={() => setBranchesOpen(false)}
      />
      {group && (
        <GroupMembersSheet
          roomId={roomId}
          group={group}
          canChange={!readOnly}
          busy={stream.busy}
          open={membersOpen}
          onClose={() => setMembersOpen(false)}
        />
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={doomed?.image ? t('picture.confirmDelete') : t('chat.confirmDelete')}
        text={doomed?.image ? t('picture.confirmDeleteText') : t('chat.confirmDeleteText')}
        confirm={t('common.delete')}
        busy={actions.remove.isPending}
        onConfirm={() => doomed && actions.remove.mutate(removing(doomed.messageId))}
        onCancel={actions.cancelDelete}
      />
    </>
  );
}

/**
 * Calls `jumpTo` for the message the route names as soon as the conversation has loaded
 * (`messageId` is undefined until then), and again only when the route names another.
 */
function useOpenAtMessage(messageId: string | undefined, jumpTo: (messageId: string) => void) {
  const jump = useEffectEvent(jumpTo);
  useEffect(() => {
    if (messageId) jump(messageId);
  }, [messageId]);
}
