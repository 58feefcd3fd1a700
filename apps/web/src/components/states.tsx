import { useTranslation } from 'react-i18next';
import { Button, EmptyState, Spinner } from '@mates/ui';

/** A load in progress, announced. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <Spinner label={label ?? t('common.loading')} />;
}

/** A load that failed: what failed, the server's reason, and a retry. */
export function LoadError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: Error;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <EmptyState
      tone="error"
      title={title}
      description={error.message}
      action={<Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}
