import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { Button, ButtonLink, EmptyState } from '@mates/ui';
import { href } from '../lib/paths';
import { errorText } from '../i18n/error-text';

/**
 * What a screen's load fails with when its code (or its texts) could not be fetched: the
 * connection gone, or the files replaced by an update. The browser's own words for it ("Failed
 * to fetch dynamically imported module: …") are English and name a file.
 */
export class ScreenNotLoaded extends Error {}

/**
 * What a screen that failed to load or to draw shows, inside the layout (header and footer
 * stay): what went wrong, and the way home. A screen whose code could not be fetched says
 * that the connection is gone, and "Try again" loads the page anew: React Router keeps a
 * screen's failed load for the page's life, and the browser a module's failed fetch.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const unloaded = error instanceof ScreenNotLoaded;
  return (
    <EmptyState
      tone="error"
      title={t('common.somethingWrong')}
      description={
        unloaded ? t('errors.network') : error instanceof Error ? errorText(error, t) : undefined
      }
      action={
        unloaded ? (
          <Button onClick={() => location.reload()}>{t('common.retry')}</Button>
        ) : (
          <ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>
        )
      }
    />
  );
}
