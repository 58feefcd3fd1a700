import { useTranslation } from 'react-i18next';
import type { MateSummary } from '@mates/api-client';
import { Button, Flex, MateCard, MateGrid } from '@mates/ui';
import { href } from '../lib/paths';
import { useFavorites } from '../hooks/use-favorites';
import { useTagLabels } from '../hooks/use-tag-labels';

/** Mates as cards that lead to their pages, with favorite toggles and an optional "show more". */
export function MateList({
  label,
  mates,
  loading = false,
  more,
  headingLevel = 2,
}: {
  label: string;
  /** The level of each mate's name: 2 right under the page's title, 3 under a section's. */
  headingLevel?: 2 | 3;
  mates: MateSummary[];
  loading?: boolean;
  more?: { has: boolean; loading: boolean; load: () => void };
}) {
  const { t, i18n } = useTranslation();
  const { isFavorite, toggle } = useFavorites();
  const labels = useTagLabels();
  return (
    <>
      <MateGrid label={label} loading={loading} loadingLabel={t('common.loading')}>
        {mates.map((mate) => (
          <MateCard
            key={mate.mateId}
            mate={mate}
            href={href('/detail', { mateId: mate.mateId })}
            tagLabels={labels}
            favorite={isFavorite(mate.mateId)}
            onFavoriteChange={() => toggle(mate.mateId)}
            locale={i18n.language}
            headingLevel={headingLevel}
            labels={{
              favorite: t('common.favorite'),
              chats: (value, count) => t('common.chatsShort', { value, count }),
              mature: t('common.matureBadge'),
              matureName: t('common.mature'),
            }}
          />
        ))}
      </MateGrid>
      {more?.has && (
        <Flex justify="center">
          <Button variant="soft" onClick={more.load} aria-busy={more.loading}>
            {t('common.loadMore')}
          </Button>
        </Flex>
      )}
    </>
  );
}
