import { useTranslation } from 'react-i18next';
import { Button, ButtonLink, EmptyState, Flex, Spinner } from '@mates/ui';
import { href, type RoutePath } from '../lib/paths';
import { errorText } from '../i18n/error-text';

/** A load in progress, announced. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <Spinner label={label ?? t('common.loading')} />;
}

/** A load that failed: what failed (default "Something went wrong"), the server's reason, a retry. */
export function LoadError({
  query,
  title,
}: {
  query: { error: Error | null; refetch: () => unknown };
  title?: string;
}) {
  const { t } = useTranslation();
  return (
    <EmptyState
      tone="error"
      title={title ?? t('common.somethingWrong')}
      description={query.error ? errorText(query.error, t) : undefined}
      action={<Button onClick={() => query.refetch()}>{t('common.retry')}</Button>}
    />
  );
}

/** The way on from a dead end (a chat that is not there, a mate that is not yours). */
export function WayOn({ to }: { to: Extract<RoutePath, '/recent-chats' | '/' | '/mine'>[] }) {
  const { t } = useTranslation();
  const labels = {
    '/recent-chats': t('wayOn.recentChats'),
    '/': t('wayOn.discover'),
    '/mine': t('wayOn.mine'),
  };
  return (
    <Flex gap={2} justify="center" wrap>
      {to.map((path, index) => (
        <ButtonLink key={path} variant={index === 0 ? 'solid' : 'soft'} href={href(path)}>
          {labels[path]}
        </ButtonLink>
      ))}
    </Flex>
  );
}
