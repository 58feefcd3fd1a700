import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { ButtonLink, EmptyState, Heading, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { trendingQuery } from '../../lib/queries';
import { mateKeys } from '../../lib/query-keys';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { LoadError } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { usePaged } from '../../hooks/use-paged';

/** `/for-you`: what is trending this week, and mates that share the tags the user follows. */
export function ForYouPage() {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const selected = useSelector(store, (state) => state.context.selectedTags);
  const extra = useSelector(store, (state) => state.context.extraTags);
  const saved = useSelector(store, (state) => state.context.userInfo.tags);
  const tags = useMemo(
    () => [...new Set([...selected, ...extra, ...(saved ?? [])])],
    [selected, extra, saved],
  );
  const trending = useQuery(trendingQuery(client));
  const picked = usePaged(
    mateKeys.forYou(tags),
    (page, signal) => client.mate.recommend({ tags, page, pageSize: 12 }, { signal }),
    { enabled: tags.length > 0 },
  );
  return (
    <Page title={t('forYou.title')}>
      <Stack gap={3}>
        <Heading as="h2" size={2}>
          {t('forYou.trending')}
        </Heading>
        {trending.isError ? (
          <LoadError query={trending} />
        ) : trending.data?.length === 0 ? (
          <Text tone="muted">{t('forYou.emptyTrending')}</Text>
        ) : (
          <MateList
            label={t('forYou.trending')}
            mates={(trending.data ?? []).map((entry) => entry.mate)}
            loading={trending.isPending}
            headingLevel={3}
          />
        )}
      </Stack>
      <Stack gap={3}>
        <Heading as="h2" size={2}>
          {t('forYou.picked')}
        </Heading>
        {tags.length === 0 ? (
          <EmptyState
            title={t('forYou.picked')}
            description={t('forYou.noTags')}
            action={<ButtonLink href={href('/')}>{t('forYou.chooseTags')}</ButtonLink>}
          />
        ) : picked.query.isError ? (
          <LoadError query={picked.query} />
        ) : (
          <>
            <Text tone="muted">{t('forYou.pickedText')}</Text>
            <MateList
              label={t('forYou.picked')}
              mates={picked.items}
              loading={picked.query.isPending}
              more={picked.more}
              headingLevel={3}
            />
          </>
        )}
      </Stack>
    </Page>
  );
}
