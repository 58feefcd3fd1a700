import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { ButtonLink, EmptyState } from '@mates/ui';
import { href } from '../lib/paths';
import { errorText } from '../i18n/error-text';

/**
 * What a screen that failed to load or to draw shows, inside the layout (header and footer
 * stay): what went wrong, and the way home. A screen's chunk missing after an update lands
 * here too.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return (
    <EmptyState
      tone="error"
      title={t('common.somethingWrong')}
      description={error instanceof Error ? errorText(error, t) : undefined}
      action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
    />
  );
}
