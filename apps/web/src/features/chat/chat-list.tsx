import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Button, Flex, GroupPortrait, SearchField, SideLink, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { roomKeys } from '../../lib/query-keys';
import { usePaged } from '../../hooks/use-paged';
import { useDebounced } from '../../hooks/use-debounced';
import { plainPreview } from '../../components/plain-text';
import { LoadError } from '../../components/states';
import { portraitOf } from '../../components/group/group-look';

/** Props of {@link ChatList}. */
export interface ChatListProps {
  /** The chat open now, marked in the list. */
  roomId: string;
  /** Called when a chat is chosen (the drawer closes). */
  onChoose?: () => void;
}

/**
 * The person's chats, latest first, beside the conversation (a drawer on phones): a search by
 * the mate's name, each chat a link to it, the open one marked.
 */
export function ChatList({ roomId, onChoose }: ChatListProps) {
  const { t, i18n } = useTranslation();
  const { client } = useServices();
  const [text, setText] = useState('');
  const keyword = useDebounced(text.trim(), 250);
  const rooms = usePaged(
    roomKeys.search(keyword),
    (page, signal) => client.room.roomList({ page, pageSize: 20, keyword }, { signal }),
    { always: true },
  );
  return (
    <Stack gap={3}>
      <SearchField
        value={text}
        onValueChange={setText}
        labels={{
          search: t('recent.search'),
          placeholder: t('recent.searchPlaceholder'),
          hotWords: '',
        }}
      />
      {rooms.query.isError ? (
        <LoadError query={rooms.query} />
      ) : (
        <Stack as="ul" gap={1} aria-label={t('recent.side')} aria-busy={rooms.query.isPending}>
          {rooms.items.map((room) => (
            <li key={room.roomId}>
              <SideLink
                href={href('/chat-detail', { roomId: room.roomId })}
                current={room.roomId === roomId}
                onClick={onChoose}
              >
                <Flex gap={2} align="center">
                  {room.group ? (
                    <GroupPortrait {...portraitOf(room.group, t, i18n.language)} size="small" />
                  ) : (
                    <Avatar src={room.mate.avatar} name={room.mate.name} size="small" decorative />
                  )}
                  <Stack gap={0}>
                    <Text weight="medium">{room.group?.name ?? room.mate.name}</Text>
                    <Text tone="muted" size={1}>
                      {plainPreview(room.lastMessage?.content ?? '', 60) || t('recent.noMessages')}
                    </Text>
                    {room.branchCount !== undefined && room.branchCount > 1 && (
                      <Text tone="muted" size={1}>
                        {t('recent.branches', { count: room.branchCount })}
                      </Text>
                    )}
                  </Stack>
                </Flex>
              </SideLink>
            </li>
          ))}
        </Stack>
      )}
      {rooms.query.isSuccess && rooms.items.length === 0 && (
        <Text tone="muted" size={2}>
          {keyword ? t('recent.noMatch', { keyword }) : t('recent.empty')}
        </Text>
      )}
      {rooms.more.has && (
        <Flex justify="center">
          <Button
            variant="soft"
            size="small"
            onClick={rooms.more.load}
            aria-busy={rooms.more.loading}
          >
            {t('common.loadMore')}
          </Button>
        </Flex>
      )}
    </Stack>
  );
}
