import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Chip, EmptyState, Flex, Heading, Stack } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { mateKeys } from '../../lib/query-keys';
import { Page } from '../../components/page';
import { Loading, LoadError, WayOn } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { useTagGroups } from '../../hooks/use-tag-labels';
import { usePaged } from '../../hooks/use-paged';

/** `/category?tag=…`: every tag group; the mates of the chosen tag, a page at a time. */
export function CategoryPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [params, setParams] = useSearchParams();
  const { groups, labels } = useTagGroups();
  const tag = params.get('tag') ?? groups.data?.[0]?.tags[0]?.key ?? '';
  const mates = usePaged(
    mateKeys.ofCategory(tag),
    (page, signal) => client.mate.recommend({ tags: [tag], page, pageSize: 24 }, { signal }),
    { enabled: tag !== '' },
  );
  if (groups.isPending) return <Loading />;
  if (groups.isError) return <LoadError query={groups} />;
  return (
    <Page title={t('category.title')} back={{ to: '/' }}>
      <Stack gap={4} as="nav" aria-label={t('category.groups')}>
        {groups.data.map((group) => (
          <Stack key={group.key} gap={2}>
            <Heading as="h2" size={1}>
              {group.label}
            </Heading>
            <Flex gap={2} wrap role="group" aria-label={group.label}>
              {group.tags.map((item) => (
                <Chip
                  key={item.key}
                  selected={item.key === tag}
                  onSelectedChange={() => setParams({ tag: item.key }, { replace: true })}
                >
                  {item.label}
                </Chip>
              ))}
            </Flex>
          </Stack>
        ))}
      </Stack>
      {mates.query.isError ? (
        <LoadError query={mates.query} />
      ) : mates.query.isSuccess && mates.items.length === 0 ? (
        <EmptyState title={t('category.empty')} action={<WayOn to={['/']} />} />
      ) : (
        <MateList
          label={t('category.mates', { tag: labels[tag] ?? tag })}
          mates={mates.items}
          loading={mates.query.isPending}
          more={mates.more}
        />
      )}
    </Page>
  );
}
