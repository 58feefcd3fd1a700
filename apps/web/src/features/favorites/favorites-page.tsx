import { useTranslation } from 'react-i18next';
import { ButtonLink, EmptyState } from '@mates/ui';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { LoadError } from '../../components/states';
import { MateList } from '../../components/mate-list';
import { useFavorites } from '../../hooks/use-favorites';

/** `/favorite`: the mates the user keeps, each one a toggle away from leaving. */
export function FavoritesPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('favorites.title')}>
      <SignInGate>
        <Favorites />
      </SignInGate>
    </Page>
  );
}

function Favorites() {
  const { t } = useTranslation();
  const { favorites } = useFavorites();
  if (favorites.isError) return <LoadError query={favorites} />;
  if (favorites.data?.length === 0)
    return (
      <EmptyState
        title={t('favorites.empty')}
        description={t('favorites.emptyText')}
        action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
      />
    );
  return (
    <MateList
      label={t('favorites.list')}
      mates={favorites.data ?? []}
      loading={favorites.isPending}
    />
  );
}
