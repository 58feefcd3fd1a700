import { useTranslation } from 'react-i18next';
import { ButtonLink, EmptyState } from '@mates/ui';
import { href } from '../../lib/paths';

/** Any path the route table does not know. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <EmptyState
      title={t('notFound.title')}
      description={t('notFound.text')}
      action={
        <ButtonLink variant="soft" href={href('/')}>
          {t('common.home')}
        </ButtonLink>
      }
    />
  );
}
