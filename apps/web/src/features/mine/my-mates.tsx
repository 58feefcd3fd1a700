import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MateVisibility, OwnMateSummary } from '@mates/api-client';
import {
  Avatar,
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  Heading,
  Stack,
  Tabs,
  Tag,
  Text,
} from '@mates/ui';
import { href } from '../../lib/paths';
import { useServices } from '../../lib/services-context';
import { mateKeys } from '../../lib/query-keys';
import { Loading, LoadError } from '../../components/states';
import { usePaged } from '../../hooks/use-paged';
import { CardImport } from './card-import';
import { MateActions } from './mate-actions';

const FILTERS = ['all', 'draft', 'private', 'public'] as const;
type Filter = (typeof FILTERS)[number];

function useMyMates(filter: Filter) {
  const { client } = useServices();
  return usePaged(mateKeys.mineOf(filter), (page, signal) =>
    client.mate.myMates(
      { page, ...(filter === 'all' ? {} : { visibility: filter satisfies MateVisibility }) },
      { signal },
    ),
  );
}

/** "Your mates" in `/mine`: drafts, private and public mates, with their actions and card import. */
export function MyMates() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const [importing, setImporting] = useState(false);
  const all = useMyMates('all');
  const none = all.query.isSuccess && all.total === 0;
  const startImport = () => setImporting(true);
  return (
    <Stack gap={4} as="section" aria-labelledby="mine-mates">
      <Flex justify="between" align="center" wrap gap={2}>
        <Heading as="h2" size={2} id="mine-mates">
          {t('myMates.title')}
        </Heading>
        {!none && <StartActions importing={importing} onImport={startImport} />}
      </Flex>
      <Text tone="muted">{t('myMates.intro')}</Text>
      {importing && <CardImport onClose={() => setImporting(false)} />}
      {all.query.isPending ? (
        <Loading />
      ) : all.query.isError ? (
        <LoadError query={all.query} title={t('myMates.error')} />
      ) : none ? (
        !importing && (
          <EmptyState
            title={t('myMates.empty')}
            description={t('myMates.emptyText')}
            action={<StartActions importing={importing} onImport={startImport} />}
          />
        )
      ) : (
        <Tabs
          label={t('myMates.filtersLabel')}
          value={filter}
          onValueChange={(value) => setFilter(value as Filter)}
          tabs={FILTERS.map((value) => ({
            value,
            label: t(`myMates.filters.${value}`),
            content: <Shelf filter={value} />,
          }))}
        />
      )}
    </Stack>
  );
}

function StartActions({ importing, onImport }: { importing: boolean; onImport: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex gap={2} wrap justify="center">
      <ButtonLink href={href('/generate')}>{t('myMates.create')}</ButtonLink>
      <Button variant="soft" aria-expanded={importing} onClick={onImport}>
        {t('myMates.importCard')}
      </Button>
    </Flex>
  );
}

/** One filter's mates, a page at a time. */
function Shelf({ filter }: { filter: Filter }) {
  const { t } = useTranslation();
  const { query, items, more } = useMyMates(filter);
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError query={query} title={t('myMates.error')} />;
  if (items.length === 0) return <Text tone="muted">{t('myMates.emptyFilter')}</Text>;
  return (
    <Stack gap={3}>
      <Stack
        as="ul"
        gap={3}
        aria-label={t('myMates.list', { filter: t(`myMates.filters.${filter}`) })}
      >
        {items.map((mate) => (
          <OwnMate key={mate.mateId} mate={mate} />
        ))}
      </Stack>
      {more.has && (
        <Flex justify="center">
          <Button variant="soft" onClick={more.load} aria-busy={more.loading}>
            {t('common.loadMore')}
          </Button>
        </Flex>
      )}
    </Stack>
  );
}

function OwnMate({ mate }: { mate: OwnMateSummary }) {
  const { t } = useTranslation();
  const noticeId = useId();
  const { moderation } = mate;
  return (
    <Card as="li" aria-label={mate.name}>
      <Flex gap={3} align="center">
        <Avatar src={mate.avatar} name={mate.name} size="large" decorative />
        <Stack gap={1}>
          <Flex gap={2} align="center" wrap>
            <Heading as="h3" size={1}>
              {mate.name}
            </Heading>
            <Tag>{t(`myMates.visibility.${mate.visibility}`)}</Tag>
            {moderation && <Tag>{t('myMates.hidden')}</Tag>}
          </Flex>
          {mate.tagline && (
            <Text tone="muted" size={2}>
              {mate.tagline}
            </Text>
          )}
          <Text size={2}>{t('myMates.chats', { count: mate.counters.chats })}</Text>
        </Stack>
      </Flex>
      {moderation && (
        <Stack gap={1} id={noticeId}>
          <Text tone="danger" size={2}>
            {moderation.note
              ? t('myMates.hiddenNoticeNote', {
                  reason: t(`report.reasons.${moderation.reason}`),
                  note: moderation.note,
                })
              : t('myMates.hiddenNotice', { reason: t(`report.reasons.${moderation.reason}`) })}
          </Text>
          <Text tone="muted" size={2}>
            {t('myMates.hiddenLocked')}
          </Text>
        </Stack>
      )}
      <MateActions mate={mate} lockedBy={noticeId} />
    </Card>
  );
}
