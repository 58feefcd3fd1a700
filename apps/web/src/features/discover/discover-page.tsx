import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { GENDERS } from '@mates/api-client';
import { Button, ButtonLink, Chip, EmptyState, Flex } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { mateKeys } from '../../lib/query-keys';
import { Page } from '../../components/page';
import { LoadError } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { useTagGroups } from '../../hooks/use-tag-labels';
import { usePaged } from '../../hooks/use-paged';

// "All" first, then the contract's genders: the filter chips.
const GENDER_CHIPS = ['all', ...GENDERS] as const;

/** `/`: recommendations filtered by the user's chosen tags and gender, with tag chips. */
export function DiscoverPage() {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const selectedTags = useSelector(store, (state) => state.context.selectedTags);
  const gender = useSelector(store, (state) => state.context.selectGender);
  const { groups } = useTagGroups();
  const mates = usePaged(mateKeys.recommended(selectedTags, gender), (page, signal) =>
    client.mate.recommend(
      { tags: selectedTags, gender: gender ?? undefined, page, pageSize: 24 },
      { signal },
    ),
  );
  return (
    <Page
      title={t('discover.title')}
      actions={
        <Flex gap={2} wrap>
          <ButtonLink variant="ghost" size="small" href={href('/for-you')}>
            {t('nav.forYou')}
          </ButtonLink>
          <ButtonLink variant="ghost" size="small" href={href('/category')}>
            {t('nav.categories')}
          </ButtonLink>
        </Flex>
      }
    >
      {/* One tap per choice, as the tags below; no menu to open on a phone. */}
      <Flex gap={2} wrap role="group" aria-label={t('discover.gender')}>
        {GENDER_CHIPS.map((value) => (
          <Chip
            key={value}
            selected={(gender ?? 'all') === value}
            onSelectedChange={() =>
              store.trigger.genderSelected({ gender: value === 'all' ? null : value })
            }
          >
            {t(`discover.genders.${value}`)}
          </Chip>
        ))}
      </Flex>
      <Flex gap={2} wrap role="group" aria-label={t('discover.filterByTag')}>
        {(groups.data?.[0]?.tags ?? []).map((tag) => (
          <Chip
            key={tag.key}
            selected={selectedTags.includes(tag.key)}
            onSelectedChange={() => store.trigger.tagToggled({ tag: tag.key })}
          >
            {tag.label}
          </Chip>
        ))}
      </Flex>
      {mates.query.isError ? (
        <LoadError query={mates.query} title={t('discover.error')} />
      ) : mates.query.isSuccess && mates.items.length === 0 ? (
        <EmptyState
          title={t('discover.empty')}
          description={t('discover.emptyText')}
          action={
            <Button
              variant="soft"
              onClick={() => {
                store.trigger.selectedTagsChanged({ tags: [] });
                store.trigger.genderSelected({ gender: null });
              }}
            >
              {t('discover.clear')}
            </Button>
          }
        />
      ) : (
        <MateList
          label={t('discover.recommended')}
          mates={mates.items}
          loading={mates.query.isPending}
          more={mates.more}
        />
      )}
    </Page>
  );
}
