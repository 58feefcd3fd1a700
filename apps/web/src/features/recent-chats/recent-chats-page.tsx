import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoomSummary } from '@mates/api-client';
import {
  Avatar,
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  GroupPortrait,
  Heading,
  SearchField,
  Stack,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { forgetDraft } from '../../lib/drafts';
import { roomKeys } from '../../lib/query-keys';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError } from '../../components/states';
import { usePaged } from '../../hooks/use-paged';
import { plainPreview } from '../../components/plain-text';
import { useDebounced } from '../../hooks/use-debounced';
import { MESSAGE_SEARCH_MIN_LENGTH } from './api/recent-chats-queries';
import { MessageSearchResults } from './message-search';
import { CreateGroupDialog } from '../../components/group/create-group-dialog';
import { portraitOf } from '../../components/group/group-look';

/** How long typing must pause before the words are searched. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/recent-chats`: conversations, latest first, to resume or delete; above them, a search of
 * the words of every message, whose results stand in for the list while there are words.
 */
export function RecentChatsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('recent.title')}>
      <SignInGate>
        <SearchOrChats />
      </SignInGate>
    </Page>
  );
}

function SearchOrChats() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const words = text.trim();
  const keyword = useDebounced(words, SEARCH_DEBOUNCE_MS);
  const [grouping, setGrouping] = useState(false);
  return (
    <Stack gap={4}>
      <Flex justify="end">
        <Button
          variant="soft"
          size="small"
          aria-haspopup="dialog"
          onClick={() => setGrouping(true)}
        >
          {t('group.newGroup')}
        </Button>
      </Flex>
      <CreateGroupDialog open={grouping} onClose={() => setGrouping(false)} />
      <SearchField
        value={text}
        onValueChange={setText}
        labels={{
          search: t('recent.searchMessages'),
          placeholder: t('recent.searchMessagesPlaceholder'),
          hotWords: '',
        }}
      />
      {words.length >= MESSAGE_SEARCH_MIN_LENGTH ? (
        <MessageSearchResults keyword={keyword} typing={keyword !== words} />
      ) : (
        <RecentChats />
      )}
    </Stack>
  );
}

function RecentChats() {
  const { t } = useTranslation();
  const { client, storage } = useServices();
  const queries = useQueryClient();
  const rooms = usePaged(
    roomKeys.lists(),
    (page, signal) => client.room.roomList({ page, pageSize: 20 }, { signal }),
    { always: true },
  );
  const [doomed, setDoomed] = useState<RoomSummary | null>(null);
  const remove = useMutation({
    mutationFn: (roomId: string) => client.room.deleteRoom({ roomId }),
    onSuccess: (_none, roomId) => {
      forgetDraft(storage, roomId);
      setDoomed(null);
    },
    onSettled: () => queries.invalidateQueries({ queryKey: roomKeys.lists() }),
  });
  if (rooms.query.isPending) return <Loading />;
  if (rooms.query.isError) return <LoadError query={rooms.query} />;
  if (rooms.items.length === 0)
    return (
      <EmptyState
        title={t('recent.empty')}
        description={t('recent.emptyText')}
        action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
      />
    );
  return (
    <>
      <Stack as="ul" gap={3} aria-label={t('recent.list')}>
        {rooms.items.map((room) => (
          <RoomItem key={room.roomId} room={room} onDelete={() => setDoomed(room)} />
        ))}
      </Stack>
      {rooms.more.has && (
        <Flex justify="center">
          <Button variant="soft" onClick={rooms.more.load} aria-busy={rooms.more.loading}>
            {t('common.loadMore')}
          </Button>
        </Flex>
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={t('recent.confirmTitle')}
        text={t('recent.confirmText', { name: doomed?.group?.name ?? doomed?.mate.name ?? '' })}
        confirm={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => doomed && remove.mutate(doomed.roomId)}
        onCancel={() => setDoomed(null)}
      />
    </>
  );
}

function RoomItem({ room, onDelete }: { room: RoomSummary; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  // A group shows its mates' portraits and its name, where a chat shows its mate's.
  const name = room.group?.name ?? room.mate.name;
  const date = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(room.updatedAt));
  return (
    <Card as="li" aria-label={name}>
      <Flex gap={3} align="center">
        {room.group ? (
          <GroupPortrait {...portraitOf(room.group, t, i18n.language)} />
        ) : (
          <Avatar src={room.mate.avatar} name={room.mate.name} decorative />
        )}
        <Stack gap={1}>
          <Heading as="h2" size={1}>
            {name}
          </Heading>
          <Text tone="muted" size={2}>
            {plainPreview(room.lastMessage?.content ?? '') || t('recent.noMessages')}
          </Text>
          <Text tone="muted" size={1}>
            {t('recent.updated', { date })}
          </Text>
          {room.branchCount !== undefined && room.branchCount > 1 && (
            <Text tone="muted" size={1}>
              {t('recent.branches', { count: room.branchCount })}
            </Text>
          )}
        </Stack>
      </Flex>
      <Flex gap={2} justify="end" wrap>
        <ButtonLink
          size="small"
          href={href('/chat-detail', { roomId: room.roomId })}
          aria-label={t('recent.resume', { name })}
        >
          {t('recent.resumeShort')}
        </ButtonLink>
        <Button
          size="small"
          variant="ghost"
          onClick={onDelete}
          aria-label={t('recent.delete', { name })}
        >
          {t('common.delete')}
        </Button>
      </Flex>
    </Card>
  );
}
