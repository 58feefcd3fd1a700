import { useTranslation } from 'react-i18next';
import { ButtonLink, Text } from '@mates/ui';
import { href } from '../../app/paths';
import { Page } from '../../components/page';

/** The screens of docs/product.md whose features come later: each says what it will hold. */
export type PlannedScreen = 'subscription' | 'singlePackage' | 'userSubscription';

/** A page that says what will be there, and leads back (some have no header). */
export function PlannedPage({ screen }: { screen: PlannedScreen }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`planned.titles.${screen}`)}>
      <Text tone="accent" weight="medium">
        {t('planned.soon')}
      </Text>
      <Text>{t(`planned.${screen}`)}</Text>
      <ButtonLink variant="soft" href={href('/')}>
        {t('common.home')}
      </ButtonLink>
    </Page>
  );
}
