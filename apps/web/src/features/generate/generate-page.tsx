import { VoiceProvider } from '../../components/voice/voice-player';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/store-react';
import { EmptyState } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { mateDetailQuery } from '../../lib/queries';
import { Page } from '../../components/page';
import { SignInGate, useSignedIn } from '../../components/sign-in-gate';
import { Loading, LoadError, WayOn } from '../../components/states';
import { draftOf } from './autosave';
import { Studio } from './studio';

/**
 * `/generate` (no header or footer): the creation studio. `?mateId=…` edits one of the caller's
 * own mates in the same form.
 */
function GenerateScreen() {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const [params] = useSearchParams();
  const mateId = params.get('mateId');
  const signedIn = useSignedIn();
  const userId = useSelector(store, (state) => state.context.userInfo.uuid);
  const mate = useQuery({
    ...mateDetailQuery(client, mateId ?? ''),
    enabled: mateId !== null && signedIn,
  });
  const own = mate.data && mate.data.creator.creatorId === userId ? mate.data : null;
  // Opened to edit a mate, the title says so before the mate is known (loading, failed).
  const title = own
    ? t('generate.editTitle', { name: own.name })
    : mateId
      ? t('generate.editAnyTitle')
      : t('generate.title');
  const edit = () => {
    if (mate.isPending) return <Loading />;
    if (mate.isError)
      return <LoadError query={mate} title={t('generate.loadError')} wayOn={['/mine', '/']} />;
    if (!own)
      return (
        <EmptyState
          tone="error"
          title={t('generate.notYours')}
          action={<WayOn to={['/mine', '/']} />}
        />
      );
    return <Studio key={own.mateId} mateId={own.mateId} mate={own} saved={draftOf(own)} />;
  };
  return (
    <Page title={title} back={{ to: '/mine', label: t('generate.back') }} balances>
      <SignInGate>{mateId ? edit() : <Studio key="new" mateId={null} />}</SignInGate>
    </Page>
  );
}

/**
 * The screen with its own voice player: the player (and XState's runtime) loads with the
 * screens that speak, never with the first screen; leaving the screen silences it.
 */
export function GeneratePage() {
  return (
    <VoiceProvider>
      <GenerateScreen />
    </VoiceProvider>
  );
}
