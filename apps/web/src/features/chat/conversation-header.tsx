import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Room, RoomInfo } from '@mates/api-client';
import {
  Avatar,
  Button,
  Docked,
  Flex,
  GroupPortrait,
  Heading,
  Link,
  MoreMenu,
  NarrowOnly,
  Stack,
  Text,
  WideOnly,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { forgetDraft } from '../../lib/drafts';
import { roomKeys } from '../../lib/query-keys';
import { href, routeTo } from '../../lib/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PersonaSwitch } from './persona-switch';
import { portraitOf } from '../../components/group/group-look';
import { CreateGroupDialog } from '../../components/group/create-group-dialog';
import { CallButton } from '../../components/call/call-button';
import { useSayFailure } from './use-say-failure';

/** Props of {@link ConversationHeader}. */
export interface ConversationHeaderProps {
  roomId: string;
  room: Pick<RoomInfo, 'mate' | 'persona' | 'readOnly'> & {
    room?: Pick<RoomInfo['room'], 'group'>;
  };
  /** Opens a group's members sheet (a group chat only). */
  onOpenMembers?: () => void;
  /** Whether the person's chats are there to open (in a drawer on a phone). */
  signedIn: boolean;
  onOpenChats: () => void;
  /** "Speak replies aloud", when the server speaks. */
  speakSwitch: ReactNode;
  /** The button that opens the picture sheet, when the server draws. */
  pictureButton: ReactNode;
  /** Opens the Memory panel. */
  onOpenMemory: () => void;
  /** Opens the Branches view (the chat's paths). */
  onOpenBranches: () => void;
}

/**
 * The top of the conversation: on a phone, one compact row (back, the mate, and a menu for
 * the rest); on a wide screen, the way back, the room's actions, the mate and who the person
 * plays.
 */
export function ConversationHeader(props: ConversationHeaderProps) {
  const { t, i18n } = useTranslation();
  const { roomId, room, signedIn, onOpenChats, speakSwitch, pictureButton, onOpenMemory } = props;
  const { onOpenBranches, onOpenMembers } = props;
  const { mate, persona, readOnly } = room;
  const group = room.room?.group;
  const { client } = useServices();
  const navigate = useNavigate();
  const sayFailure = useSayFailure();
  // One for both places the actions are drawn (the phone's menu, the wide header).
  const newChat = useMutation({
    // As the persona played here (without one, the default persona, as any new chat opens).
    mutationFn: (mateId: string) =>
      client.room.createRoom({ mateId, ...(persona ? { personaId: persona.uuid } : {}) }),
    onSuccess: (created) => navigate(routeTo('/chat-detail', { roomId: created.roomId })),
    // A chat that could not open is said, not left as silence after the press.
    onError: sayFailure,
  });
  const [leaving, setLeaving] = useState(false);
  const [inviting, setInviting] = useState(false);
  const actions = (
    <RoomActions
      room={room}
      group={group !== undefined}
      {...(onOpenMembers ? { onMembers: onOpenMembers } : {})}
      onInvite={() => setInviting(true)}
      newChat={newChat}
      onMemory={onOpenMemory}
      onBranches={onOpenBranches}
      onDelete={() => setLeaving(true)}
    />
  );
  const playing = (
    <Text tone="muted" size={2}>
      {persona ? t('chat.persona', { name: persona.name }) : t('chat.noPersona')}
    </Text>
  );
  // A call needs a signed-in person and a chat they can write in.
  const callButton = signedIn && !readOnly && (
    <CallButton
      roomId={roomId}
      peer={{
        name: group?.name ?? mate.name,
        avatar: mate.avatar,
        ...(group ? { group } : {}),
      }}
    />
  );
  const personaSwitch = !readOnly && (
    <PersonaSwitch roomId={roomId} personaId={persona?.uuid ?? null} />
  );
  return (
    <Docked edge="top">
      <NarrowOnly>
        <Flex gap={2} align="center">
          {/* A finger's size (44 px), as the menu's button: the arrow alone was 13 px wide. */}
          <Link href={href('/recent-chats')} aria-label={t('chat.back')} style={FINGER}>
            ←
          </Link>
          {group ? (
            <GroupPortrait {...portraitOf(group, t, i18n.language)} size="small" />
          ) : (
            <Link
              href={href('/chat-profile', { roomId })}
              aria-label={t('chat.profile', { name: mate.name })}
              style={{ borderRadius: '50%', textDecoration: 'none' }}
            >
              <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
            </Link>
          )}
          <div style={{ flex: 1, minWidth: 0 }}>
            {/* One line, cut short with "…": a group's long name wrapped under the buttons. */}
            <Heading as="h1" size={2} style={ONE_LINE}>
              {group?.name ?? mate.name}
            </Heading>
          </div>
          {callButton}
          <MoreMenu label={t('chat.more')}>
            {signedIn && (
              <Button size="small" variant="soft" onClick={onOpenChats}>
                {t('recent.open')}
              </Button>
            )}
            {actions}
            {!readOnly && speakSwitch}
            {pictureButton}
            {playing}
            {personaSwitch}
          </MoreMenu>
        </Flex>
      </NarrowOnly>
      <WideOnly>
        <Stack gap={2}>
          <Flex justify="between" align="center" gap={2} wrap>
            <Link href={href('/recent-chats')}>← {t('chat.back')}</Link>
            <Flex gap={2} align="center" wrap>
              {callButton}
              {actions}
            </Flex>
          </Flex>
          <Flex gap={3} align="center">
            {/* The mate's portrait leads to the chat's profile: its card and its pictures. */}
            {group ? (
              <GroupPortrait {...portraitOf(group, t, i18n.language)} />
            ) : (
              <Link
                href={href('/chat-profile', { roomId })}
                aria-label={t('chat.profile', { name: mate.name })}
                style={{ borderRadius: '50%', textDecoration: 'none' }}
              >
                <Avatar src={mate.avatar} name={mate.name} decorative />
              </Link>
            )}
            <Stack gap={1}>
              <Heading as="h1" size={2}>
                {group?.name ?? mate.name}
              </Heading>
              {playing}
            </Stack>
            {personaSwitch}
          </Flex>
        </Stack>
      </WideOnly>
      <DeleteChatDialog
        roomId={roomId}
        mateName={group?.name ?? mate.name}
        open={leaving}
        onClose={() => setLeaving(false)}
      />
      {!group && (
        <CreateGroupDialog open={inviting} onClose={() => setInviting(false)} initial={[mate]} />
      )}
    </Docked>
  );
}

/** A phone's title: one line, whatever its length, the rest cut short with "…". */
const ONE_LINE = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** The phone's way back: a 44-pixel square, its arrow in the middle. */
const FINGER = {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: '44px',
  minHeight: '44px',
  flexShrink: 0,
} as const;

/**
 * The mate's page, a new chat, the chat's memory, its branches and delete: in the phone's More
 * menu and the wide header alike.
 */
function RoomActions({
  room: { mate, readOnly },
  group,
  onMembers,
  onInvite,
  newChat,
  onMemory,
  onBranches,
  onDelete,
}: {
  room: Pick<RoomInfo, 'mate' | 'readOnly'>;
  /** A group chat. */
  group: boolean;
  onMembers?: () => void;
  /** "Invite a mate": a new group with this chat's mate (a one-to-one chat only). */
  onInvite: () => void;
  newChat: UseMutationResult<Room, Error, string>;
  onMemory: () => void;
  onBranches: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  // A group's chat has members rather than one mate's page and a new chat with it.
  const oneMate = !readOnly && !group;
  return (
    <>
      {group && onMembers && (
        <Button size="small" variant="ghost" aria-haspopup="dialog" onClick={onMembers}>
          {t('group.members')}
        </Button>
      )}
      {oneMate && (
        <Link href={href('/detail', { mateId: mate.mateId })}>
          {t('chat.mate', { name: mate.name })}
        </Link>
      )}
      {oneMate && (
        <Button
          size="small"
          variant="ghost"
          aria-label={t('chat.newChatWith', { name: mate.name })}
          aria-busy={newChat.isPending}
          onClick={() => newChat.mutate(mate.mateId)}
        >
          {t('chat.newChat')}
        </Button>
      )}
      {oneMate && (
        <Button size="small" variant="ghost" aria-haspopup="dialog" onClick={onInvite}>
          {t('group.invite')}
        </Button>
      )}
      <Button size="small" variant="ghost" aria-haspopup="dialog" onClick={onMemory}>
        {t('memory.open')}
      </Button>
      <Button size="small" variant="ghost" aria-haspopup="dialog" onClick={onBranches}>
        {t('branches.open')}
      </Button>
      <Button size="small" variant="ghost" onClick={onDelete}>
        {t('chat.deleteChat')}
      </Button>
    </>
  );
}

/** Asks before the whole chat is deleted; once it is, the recent chats show. */
function DeleteChatDialog({
  roomId,
  mateName,
  open,
  onClose,
}: {
  roomId: string;
  mateName: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { client, storage } = useServices();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const deleteChat = useMutation({
    mutationFn: () => client.room.deleteRoom({ roomId }),
    onSuccess: () => {
      forgetDraft(storage, roomId);
      onClose();
      void queries.invalidateQueries({ queryKey: roomKeys.lists() });
      navigate(routeTo('/recent-chats'));
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title={t('chat.deleteChatTitle')}
      text={t('chat.deleteChatText', { name: mateName })}
      confirm={t('common.delete')}
      busy={deleteChat.isPending}
      onConfirm={() => deleteChat.mutate()}
      onCancel={onClose}
    />
  );
}
