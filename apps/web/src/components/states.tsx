import { useTranslation } from 'react-i18next';
import { ApiError } from '@mates/api-client';
import { Button, ButtonLink, EmptyState, Flex, Spinner, Stack, Text } from '@mates/ui';
import { href, type RoutePath } from '../lib/paths';
import { errorText } from '../i18n/error-text';

/** A load in progress, announced. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <Spinner label={label ?? t('common.loading')} />;
}

/** Whether the server answered that what was asked for is not there (4004, docs/product.md). */
export const isNotFound = (error: unknown): boolean =>
  ApiError.isInstance(error) && error.code === 4004;

/** Where a dead end leads: the paths {@link WayOn} offers. */
type WayOnPath = Extract<RoutePath, '/recent-chats' | '/' | '/mine'>;

/**
 * A load that failed: what failed (default "Something went wrong"), the server's reason, and a
 * retry; or, when the thing is not there (4004: "Room not found."), the way on (`wayOn`,
 * default Discover), since asking again cannot help.
 */
export function LoadError({
  query,
  title,
  wayOn = ['/'],
}: {
  query: { error: Error | null; refetch: () => unknown };
  title?: string;
  wayOn?: WayOnPath[];
}) {
  const { t } = useTranslation();
  const missing = isNotFound(query.error);
  return (
    <EmptyState
      tone="error"
      title={title ?? t('common.somethingWrong')}
      description={query.error ? errorText(query.error, t) : undefined}
      action={
        missing ? (
          <WayOn to={wayOn} />
        ) : (
          <Button onClick={() => query.refetch()}>{t('common.retry')}</Button>
        )
      }
    />
  );
}

/**
 * A part of a screen that could not be loaded (or refreshed), said where it stands, not over the
 * whole screen: what failed (`title`), the server's reason, and a retry that is busy while it
 * asks again.
 */
export function InlineLoadError({
  query,
  title,
}: {
  query: { error: Error | null; isFetching: boolean; refetch: () => unknown };
  title: string;
}) {
  const { t } = useTranslation();
  return (
    <Flex role="alert" gap={2} align="center" wrap>
      <Stack gap={1}>
        <Text tone="danger" size={2}>
          {title}
        </Text>
        {query.error && (
          <Text tone="muted" size={2}>
            {errorText(query.error, t)}
          </Text>
        )}
      </Stack>
      <Button
        size="small"
        variant="soft"
        onClick={() => query.refetch()}
        aria-busy={query.isFetching}
        disabled={query.isFetching}
      >
        {t('common.retry')}
      </Button>
    </Flex>
  );
}

/** The way on from a dead end (a chat that is not there, a mate that is not yours). */
export function WayOn({ to }: { to: WayOnPath[] }) {
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
