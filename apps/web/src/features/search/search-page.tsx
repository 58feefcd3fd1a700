import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Avatar, Card, EmptyState, Flex, Heading, Link, SearchField, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { trendingQuery } from '../../lib/queries';
import { hotWordsQuery, searchKeys } from './api/search-queries';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { LoadError } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { useDebounced } from '../../hooks/use-debounced';
import { usePaged } from '../../hooks/use-paged';

/** `/search?q=…`: results as you type, a page at a time; hot words and the trending ranking. */
export function SearchPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [params, setParams] = useSearchParams();
  const address = params.get('q') ?? '';
  const [text, setText] = useState(address);
  // The address changed under the page (a search link, Back, the address typed): the field
  // follows it. Typing changes the address too, to what the field holds already.
  const [followed, setFollowed] = useState(address);
  if (address !== followed) {
    setFollowed(address);
    if (address.trim() !== text.trim()) setText(address);
  }
  const keyword = useDebounced(text.trim(), 250);
  const hotWords = useQuery(hotWordsQuery(client));
  const results = usePaged(
    searchKeys.results(keyword),
    (page, signal) => client.mate.search({ keyword, page, pageSize: 24 }, { signal }),
    { enabled: keyword !== '' },
  );
  const type = (value: string) => {
    setText(value);
    setParams(value.trim() ? { q: value } : {}, { replace: true });
  };
  return (
    <Page title={t('search.title')}>
      <SearchField
        value={text}
        onValueChange={type}
        hotWords={(hotWords.data ?? []).map((word) => word.word)}
        labels={{
          search: t('search.label'),
          placeholder: t('search.placeholder'),
          hotWords: t('search.hotWords'),
        }}
      />
      {keyword === '' ? (
        <TrendingRanking />
      ) : results.query.isError ? (
        <LoadError query={results.query} title={t('search.error')} />
      ) : results.query.isSuccess && results.items.length === 0 ? (
        <EmptyState title={t('search.empty', { keyword })} description={t('search.emptyText')} />
      ) : (
        <Stack gap={3}>
          <div role="status">
            {results.query.isSuccess && (
              <Text tone="muted">{t('search.resultCount', { count: results.total })}</Text>
            )}
          </div>
          <MateList
            label={t('search.results', { keyword })}
            mates={results.items}
            loading={results.query.isPending}
            more={results.more}
          />
        </Stack>
      )}
    </Page>
  );
}

/** The week's most-chatted mates, ranked. */
function TrendingRanking() {
  const { t } = useTranslation();
  const { client } = useServices();
  const trending = useQuery(trendingQuery(client));
  if (trending.isError) return <LoadError query={trending} title={t('search.error')} />;
  return (
    <Stack gap={3} as="section" aria-labelledby="trending-ranking">
      <Heading as="h2" size={2} id="trending-ranking">
        {t('search.trending')}
      </Heading>
      {trending.data?.length === 0 && <Text tone="muted">{t('forYou.emptyTrending')}</Text>}
      <Stack as="ol" gap={2} aria-labelledby="trending-ranking" aria-busy={trending.isPending}>
        {(trending.data ?? []).map((entry) => (
          <Card as="li" key={entry.mate.mateId} aria-label={t('forYou.rank', { rank: entry.rank })}>
            <Flex gap={3} align="center">
              <Text weight="bold" size={4} aria-hidden="true">
                {entry.rank}
              </Text>
              <Avatar src={entry.mate.avatar} name={entry.mate.name} decorative />
              <Stack gap={1}>
                <Link href={href('/detail', { mateId: entry.mate.mateId })}>{entry.mate.name}</Link>
                <Text tone="muted" size={2}>
                  {t('forYou.recentChats', { count: entry.recentChats })}
                </Text>
              </Stack>
            </Flex>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
