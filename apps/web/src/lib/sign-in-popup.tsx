import { useCallback } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { AuthPopup } from '@mates/ui';
import type { ApiClient } from '@mates/api-client';
import { authPopupMachine, type AuthPopupInput, type Platform } from '@mates/state-machines';
import { GoogleButton } from './google-button';
import { serverKeys } from './query-keys';

/** The running `authPopupMachine`. */
export type PopupActor = ActorRefFrom<typeof authPopupMachine>;

/** The public configuration: it does not change while the app runs. */
const publicConfigQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: serverKeys.publicConfig(),
    queryFn: ({ signal }) => client.extra.publicConfig({ signal }),
    staleTime: Infinity,
  });

/** Starts the popup's machine (called once, by the handle in `sign-in.ts`). */
export function startPopupActor(input: AuthPopupInput): PopupActor {
  return createActor(authPopupMachine, { input }).start();
}

/**
 * The sign-up / sign-in popup, driven by authPopupMachine, with the server's providers.
 * It takes the client and platform as props rather than from the services: the services
 * load this module, and reading them back from here would close an import cycle.
 */
export function SignInPopup({
  actor,
  client,
  platform,
}: {
  actor: PopupActor;
  client: ApiClient;
  platform: Platform;
}) {
  const { t, i18n } = useTranslation();
  const state = useSelector(actor, (snapshot) => snapshot);
  const open = state.matches('open');
  const config = useQuery({ ...publicConfigQuery(client), enabled: open });
  const discord = config.data?.discord;
  const googleClientId = config.data?.googleClientId;
  const onGoogleError = useCallback(
    (error: unknown) => platform.logError('Google sign-in unavailable', error),
    [platform],
  );
  return (
    <AuthPopup
      open={open}
      mode={state.context.mode}
      productName={config.data?.productName}
      email={state.context.email}
      password={state.context.password}
      loading={state.hasTag('loading')}
      emailError={state.context.fieldErrors.email}
      passwordError={state.context.fieldErrors.password}
      labels={{
        signUpTitle: t('auth.signUpTitle'),
        signUpText: t('auth.signUpText'),
        signInTitle: (name) => t('auth.signInTitle', { name }),
        signInText: t('auth.signInText'),
        or: t('auth.or'),
        email: t('auth.email'),
        password: t('auth.password'),
        continue: t('auth.continue'),
        haveAccount: t('auth.haveAccount'),
        signIn: t('common.signIn'),
        noAccount: t('auth.noAccount'),
        signUp: t('common.signUp'),
        close: t('auth.close'),
        wait: t('auth.wait'),
        showPassword: t('auth.showPassword'),
        hidePassword: t('auth.hidePassword'),
        forgotPassword: t('auth.forgotPassword'),
      }}
      onEmailChange={(value) => actor.send({ type: 'CHANGE_EMAIL', value })}
      onPasswordChange={(value) => actor.send({ type: 'CHANGE_PASSWORD', value })}
      onSubmit={() => actor.send({ type: 'SUBMIT' })}
      onSwitchMode={() => actor.send({ type: 'SWITCH_MODE' })}
      // The machine's CLOSE returns to "/" through the platform's navigate.
      onClose={() => actor.send({ type: 'CLOSE' })}
      onForgotPassword={() => actor.send({ type: 'FORGOT_PASSWORD' })}
      onDiscord={discord ? () => actor.send({ type: 'DISCORD', discord }) : undefined}
      googleButton={
        googleClientId ? (
          <GoogleButton
            clientId={googleClientId}
            language={i18n.language}
            onCredential={(credential) => actor.send({ type: 'GOOGLE', credential })}
            onError={onGoogleError}
            unavailableText={t('auth.googleUnavailable')}
          />
        ) : undefined
      }
    />
  );
}
