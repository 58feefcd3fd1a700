import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { AUTH_MODE, isLoggedIn } from '@mates/state-machines';
import { Button, EmptyState } from '@mates/ui';
import { useServices } from '../lib/services-context';

/** Whether someone is signed in (docs/product.md, transitions: `userInfo.uuid` is present). */
export function useSignedIn(): boolean {
  const { store } = useServices();
  return useSelector(store, (state) => isLoggedIn(state.context));
}

/** Shows its children to a signed-in user, and a visitor the way to sign in. */
export function SignInGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { popup } = useServices();
  if (useSignedIn()) return children;
  return (
    <EmptyState
      title={t('auth.gate')}
      description={t('auth.gateText')}
      action={<Button onClick={() => popup.open(AUTH_MODE.signIn)}>{t('common.signIn')}</Button>}
    />
  );
}

/** Runs an action for a signed-in user; asks a visitor to sign in instead. */
export function useSignedInAction(): (action: () => void) => void {
  const { popup } = useServices();
  const signedIn = useSignedIn();
  return (action) => (signedIn ? action() : popup.open(AUTH_MODE.signIn));
}
