import { useTranslation } from 'react-i18next';
import { Button, EmptyState, Spinner } from '@mates/ui';

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
      description={query.error?.message}
      action={<Button onClick={() => query.refetch()}>{t('common.retry')}</Button>}
    />
  );
}
