import { Fragment } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MessageHit } from '@mates/api-client';
import {
  Avatar,
  Button,
  Card,
  EmptyState,
  Flex,
  Heading,
  Link,
  Mark,
  Stack,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Loading, LoadError } from '../../components/states';
import { messageSearchQuery } from './api/recent-chats-queries';

/** Props of {@link MessageSearchResults}. */
export interface MessageSearchResultsProps {
  /** The words searched for, settled (typing has paused). */
  keyword: string;
  /** Whether the person is still typing: the words on screen are not yet `keyword`. */
  typing: boolean;
}

/**
 * The messages of every chat that hold the words, newest first, a page at a time: each with
 * its mate, who said it and when, and the words around the match, marked; a link to the chat
 * at that message. How many were found (or that none were) is announced politely.
 */
export function MessageSearchResults({ keyword, typing }: MessageSearchResultsProps) {
  const { t } = useTranslation();
  const { client } = useServices();
  const search = useInfiniteQuery(messageSearchQuery(client, keyword));
  const hits = search.data?.pages.flatMap((page) => page.list) ?? [];
  const settled = !typing && search.isSuccess;
  return (
    <Stack gap={3}>
      {/* Present before the answer comes, so that screen readers announce what it says. */}
      <div role="status">
        {settled && hits.length > 0 && (
          <Text tone="muted" size={2}>
            {t(search.hasNextPage ? 'recent.hitCountMore' : 'recent.hitCount', {
              count: hits.length,
            })}
          </Text>
        )}
        {settled && hits.length === 0 && (
          <EmptyState
            title={t('recent.noHits', { keyword })}
            description={t('recent.noHitsText')}
          />
        )}
      </div>
      {typing || search.isPending ? (
        <Loading label={t('recent.searching')} />
      ) : search.isError ? (
        <LoadError query={search} title={t('recent.searchFailed')} />
      ) : (
        hits.length > 0 && (
          <>
            <Stack as="ul" gap={3} aria-label={t('recent.hits', { keyword })}>
              {hits.map((hit) => (
                <HitItem key={`${hit.roomId}/${hit.message.messageId}`} hit={hit} />
              ))}
            </Stack>
            {search.hasNextPage && (
              <Flex justify="center">
                <Button
                  variant="soft"
                  onClick={() => void search.fetchNextPage()}
                  aria-busy={search.isFetchingNextPage}
                >
                  {t('common.loadMore')}
                </Button>
              </Flex>
            )}
          </>
        )
      )}
    </Stack>
  );
}

/** One message found: the snippet is the link to the chat, opened at the message. */
function HitItem({ hit }: { hit: MessageHit }) {
  const { t, i18n } = useTranslation();
  const { mate, message } = hit;
  // A group chat is called by its name: its first member's read as a one-to-one chat.
  const chat = hit.groupName ?? mate.name;
  const date = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(message.createdAt));
  return (
    <Card as="li" aria-label={chat}>
      <Flex gap={3} align="start">
        <Avatar src={mate.avatar} name={mate.name} decorative />
        <Stack gap={1}>
          <Heading as="h2" size={1}>
            {chat}
          </Heading>
          <Text tone="muted" size={1}>
            {message.role === 'user'
              ? t('recent.youSaid')
              : t('recent.mateSaid', { name: mate.name })}{' '}
            · <time dateTime={message.createdAt}>{date}</time>
          </Text>
          <Text size={2}>
            <Link href={href('/chat-detail', { roomId: hit.roomId, messageId: message.messageId })}>
              {hit.snippet.map((part, index) =>
                part.match ? (
                  <Mark key={index}>{part.text}</Mark>
                ) : (
                  <Fragment key={index}>{part.text}</Fragment>
                ),
              )}
            </Link>
          </Text>
        </Stack>
      </Flex>
    </Card>
  );
}
