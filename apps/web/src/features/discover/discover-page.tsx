import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import type { Gender } from '@mates/api-client';
import { Button, ButtonLink, Chip, EmptyState, Flex, Select } from '@mates/ui';
import { useServices } from '../../app/services-context';
import { href } from '../../app/paths';
import { Page } from '../../components/page';
import { LoadError } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { useTagGroups } from '../../hooks/use-tag-labels';
import { usePaged } from '../../hooks/use-paged';

const GENDERS = ['all', 'female', 'male', 'nonbinary'] as const;

/** `/`: recommendations filtered by the user's chosen tags and gender, with tag chips. */
export function DiscoverPage() {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const selectedTags = useSelector(store, (state) => state.context.selectedTags);
  const gender = useSelector(store, (state) => state.context.selectGender);
  const { groups } = useTagGroups();
  const mates = usePaged(['recommend', selectedTags, gender], (page, signal) =>
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
      <Flex gap={3} align="end" wrap>
        <Select
          label={t('discover.gender')}
          value={gender ?? 'all'}
          onValueChange={(value) =>
            store.trigger.genderSelected({ gender: value === 'all' ? null : (value as Gender) })
          }
          options={GENDERS.map((value) => ({ value, label: t(`discover.genders.${value}`) }))}
        />
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
