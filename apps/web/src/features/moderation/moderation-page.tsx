import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import type { ReportQueueState } from '@mates/api-client';
import { Button, ButtonLink, EmptyState, Flex, Stack, Tabs } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { Loading, LoadError } from '../../components/states';
import { usePaged } from '../../hooks/use-paged';
import { ReportedMateItem } from './reported-mate-item';
import { moderationKeys } from './api/moderation-queries';

/** `/moderation`: reported and hidden mates, for administrators (`userInfo.isAdmin`). */
export function ModerationPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('moderation.title')}>
      <SignInGate>
        <AdminsOnly />
      </SignInGate>
    </Page>
  );
}

function AdminsOnly() {
  const { t } = useTranslation();
  const { store } = useServices();
  const isAdmin = useSelector(store, (state) => state.context.userInfo.isAdmin === true);
  const [tab, setTab] = useState<ReportQueueState>('open');
  if (!isAdmin)
    return (
      <EmptyState
        title={t('moderation.notAdmin')}
        action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
      />
    );
  return (
    <Tabs
      label={t('moderation.queue')}
      value={tab}
      onValueChange={(value) => setTab(value as ReportQueueState)}
      tabs={[
        { value: 'open', label: t('moderation.open'), content: <Queue state="open" /> },
        { value: 'hidden', label: t('moderation.hidden'), content: <Queue state="hidden" /> },
      ]}
    />
  );
}

/** One tab's list: mates with open reports, or mates moderators hid. */
function Queue({ state }: { state: ReportQueueState }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { query, items, more } = usePaged(moderationKeys.queue(state), (page, signal) =>
    client.admin.reports({ state, page }, { signal }),
  );
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError query={query} title={t('moderation.error')} />;
  if (items.length === 0)
    return state === 'open' ? (
      <EmptyState title={t('moderation.empty')} description={t('moderation.emptyText')} />
    ) : (
      <EmptyState
        title={t('moderation.emptyHidden')}
        description={t('moderation.emptyHiddenText')}
      />
    );
  return (
    <Stack gap={3}>
      <Stack
        as="ul"
        gap={3}
        aria-label={state === 'open' ? t('moderation.openList') : t('moderation.hiddenList')}
      >
        {items.map((item) => (
          <ReportedMateItem key={item.mate.mateId} item={item} />
        ))}
      </Stack>
      {more.has && (
        <Flex justify="center">
          <Button variant="soft" onClick={more.load} aria-busy={more.loading}>
            {t('common.loadMore')}
          </Button>
        </Flex>
      )}
    </Stack>
  );
}
