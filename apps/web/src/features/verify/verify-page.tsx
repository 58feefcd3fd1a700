import { useSearchParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { AUTH_MODE, verificationMachine } from '@mates/state-machines';
import { Button, Container, EmptyState, Heading, Spinner, Stack, Text } from '@mates/ui';
import { useServices } from '../../app/services-context';

/**
 * `/verify-email-address?redirect_url=…`: waits for the mailed link to be opened (polling
 * every 2 s with the ticket register gave), then signs in and lands on `redirect_url`.
 */
export function VerifyPage() {
  const { client, store, popup, platform } = useServices();
  const [params] = useSearchParams();
  const target = params.get('redirect_url') || '/';
  const { registerEmail, verifyTicket } = useStoreSelector(store, (state) => state.context);
  const poller = useActorRef(verificationMachine, {
    input: {
      client,
      email: registerEmail,
      verifyTicket: verifyTicket || undefined,
      storeUserInfo: (userInfo) => store.trigger.userInfoChanged({ userInfo }),
      // Land where the visitor was when they signed up, then reload as SPEC.md §4 says.
      platform: {
        reload: () => {
          window.location.hash = `#${target.startsWith('/') ? target : '/'}`;
          platform.reload();
        },
      },
    },
  });
  const state = useSelector(poller, (snapshot) => snapshot);

  if (!registerEmail) {
    return (
      <EmptyState
        title="Nothing to verify"
        description="Sign up first, and we will mail you a link."
        action={
          <Button onClick={() => popup.send({ type: 'OPEN', mode: AUTH_MODE.signUp })}>
            Sign up
          </Button>
        }
      />
    );
  }
  if (state.status === 'error') {
    return (
      <EmptyState
        tone="error"
        title="We could not check your address"
        description="Please reload this page to try again."
      />
    );
  }
  return (
    <Container>
      <Stack gap={4} role="status" aria-live="polite">
        <Heading as="h1" size={3}>
          Check your inbox
        </Heading>
        {state.matches('verified') ? (
          <Text>Your address is verified. Sign in to continue.</Text>
        ) : state.matches('signedIn') ? (
          <Text>Verified — signing you in…</Text>
        ) : (
          <>
            <Text>
              We sent a link to <strong>{registerEmail}</strong>. Open it, and this page signs you
              in by itself.
            </Text>
            <Spinner label="Waiting for the link to be opened" />
          </>
        )}
        <Stack gap={2}>
          {state.matches('verified') ? (
            <Button onClick={() => popup.send({ type: 'OPEN', mode: AUTH_MODE.signIn })}>
              Sign in
            </Button>
          ) : (
            <Button
              variant="soft"
              onClick={() => popup.send({ type: 'OPEN', mode: AUTH_MODE.signUp })}
            >
              Use another address
            </Button>
          )}
        </Stack>
      </Stack>
    </Container>
  );
}
