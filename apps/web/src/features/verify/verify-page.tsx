import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useActorRef } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { AUTH_MODE, verificationMachine } from '@mates/state-machines';
import { Button, Container, EmptyState, Heading, Spinner, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { useActorSnapshot } from '../../hooks/use-actor-snapshot';

/**
 * `/verify-email-address?redirect_url=…`: waits for the mailed link to be opened (polling
 * every 2 s with the ticket register gave), then signs in and lands on `redirect_url`.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  const { store, popup } = useServices();
  const { registerEmail, verifyTicket } = useStoreSelector(store, (state) => state.context);
  if (!registerEmail) {
    return (
      <EmptyState
        title={t('verify.nothing')}
        description={t('verify.nothingText')}
        action={<Button onClick={() => popup.open(AUTH_MODE.signUp)}>{t('common.signUp')}</Button>}
      />
    );
  }
  return <Waiting email={registerEmail} ticket={verifyTicket} />;
}

/** Polls for the address, and says what is happening. */
function Waiting({
  email: registerEmail,
  ticket: verifyTicket,
}: {
  email: string;
  ticket: string;
}) {
  const { t } = useTranslation();
  const { client, store, popup, platform } = useServices();
  const [params] = useSearchParams();
  const target = params.get('redirect_url') || '/';
  const poller = useActorRef(verificationMachine, {
    input: {
      client,
      email: registerEmail,
      verifyTicket: verifyTicket || undefined,
      storeUserInfo: (userInfo) => store.trigger.userInfoChanged({ userInfo }),
      // Land where the visitor was when they signed up, then reload (docs/product.md, transitions).
      platform: {
        reload: () => {
          window.location.hash = `#${target.startsWith('/') ? target : '/'}`;
          platform.reload();
        },
      },
    },
  });
  // A failed check is shown here, not thrown to the route's error page.
  const state = useActorSnapshot(poller);

  if (state.status === 'error') {
    return (
      <EmptyState tone="error" title={t('verify.error')} description={t('verify.errorText')} />
    );
  }
  return (
    <Container>
      <Stack gap={4} role="status" aria-live="polite">
        <Heading as="h1" size={3}>
          {t('verify.title')}
        </Heading>
        {state.matches('verified') ? (
          <Text>{t('verify.verified')}</Text>
        ) : state.matches('signedIn') ? (
          <Text>{t('verify.signingIn')}</Text>
        ) : (
          <>
            <Text>{t('verify.sent', { email: registerEmail })}</Text>
            <Spinner label={t('verify.waiting')} />
          </>
        )}
        <Stack gap={2}>
          {state.matches('verified') ? (
            <Button onClick={() => popup.open(AUTH_MODE.signIn)}>{t('common.signIn')}</Button>
          ) : (
            <Button variant="soft" onClick={() => popup.open(AUTH_MODE.signUp)}>
              {t('verify.other')}
            </Button>
          )}
        </Stack>
      </Stack>
    </Container>
  );
}
