import { Suspense, useCallback, useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { AppFrame, AuthPopup, Footer, Header, Spinner, Toaster } from '@mates/ui';
import { AUTH_MODE, isLoggedIn } from '@mates/state-machines';
import { useServices } from './services-context';
import { href, type RouteEntry } from './paths';
import { useDiscordGuard } from './discord-guard';
import { GoogleButton } from './google-button';
import { LANGUAGES } from '../i18n/i18n';

/** The one layout every route sits under: header and footer as the route table says. */
export function Layout() {
  const { t } = useTranslation();
  const { store, notices, popup } = useServices();
  const matches = useMatches();
  const location = useLocation();
  const navigation = useNavigation();
  const route = matches.at(-1)?.handle as Omit<RouteEntry, 'path'> | undefined;
  const main = useRef<HTMLDivElement>(null);
  const user = useStoreSelector(store, (state) => state.context);
  const toasts = useStoreSelector(notices, (state) => state.context.notices);
  useDiscordGuard();

  // After each navigation the main container scrolls to the top (SPEC.md §2).
  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [location.pathname, location.search]);

  const loadingPage = <Spinner label={t('shell.loadingPage')} />;
  return (
    <>
      <AppFrame
        ref={main}
        label={t('shell.mainContent')}
        footer={
          route?.footer ? (
            <Footer
              label={t('shell.footer')}
              note={t('shell.footerNote')}
              links={[
                { href: href('/privacy-notice'), label: t('legalLinks.privacy') },
                { href: href('/terms-of-use'), label: t('legalLinks.terms') },
                { href: href('/community-guidelines'), label: t('legalLinks.guidelines') },
                { href: href('/support'), label: t('legalLinks.support') },
                { href: href('/faq'), label: t('legalLinks.faq') },
              ]}
            />
          ) : undefined
        }
        header={
          route?.header ? (
            <Header
              homeHref={href('/')}
              searchHref={href('/search')}
              profileHref={href('/profile')}
              languages={LANGUAGES}
              language={user.userInfo.language}
              onLanguageChange={(language) => store.trigger.languageChanged({ language })}
              labels={{
                search: t('shell.search'),
                language: t('shell.language'),
                signIn: t('common.signIn'),
                profile: t('shell.profile'),
                chats: (count) => t('common.chats', { count }),
                goldCoins: (count) => t('common.goldCoins', { count }),
              }}
              user={
                isLoggedIn(user)
                  ? {
                      name: user.userInfo.nickname ?? '',
                      avatar: user.userInfo.avatar ?? null,
                      chats: user.userBenefits.chats,
                      goldCoins: user.userBenefits.goldCoins,
                    }
                  : null
              }
              onSignIn={() => popup.send({ type: 'OPEN', mode: AUTH_MODE.signIn })}
            />
          ) : undefined
        }
      >
        {navigation.state === 'loading' ? (
          loadingPage
        ) : (
          <Suspense fallback={loadingPage}>
            <Outlet />
          </Suspense>
        )}
      </AppFrame>
      <SignInPopup />
      <Toaster notices={toasts} onDismiss={(id) => notices.trigger.dismissed({ id })} />
    </>
  );
}

/** The sign-up / sign-in popup, driven by authPopupMachine, with the server's providers. */
function SignInPopup() {
  const { t, i18n } = useTranslation();
  const { client, popup, platform } = useServices();
  const state = useSelector(popup, (snapshot) => snapshot);
  const open = state.matches('open');
  const config = useQuery({
    queryKey: ['publicConfig'],
    queryFn: ({ signal }) => client.extra.publicConfig({ signal }),
    staleTime: Infinity,
    enabled: open,
  });
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
      }}
      onEmailChange={(value) => popup.send({ type: 'CHANGE_EMAIL', value })}
      onPasswordChange={(value) => popup.send({ type: 'CHANGE_PASSWORD', value })}
      onSubmit={() => popup.send({ type: 'SUBMIT' })}
      onSwitchMode={() => popup.send({ type: 'SWITCH_MODE' })}
      // The machine's CLOSE returns to "/" through the platform's navigate.
      onClose={() => popup.send({ type: 'CLOSE' })}
      onDiscord={discord ? () => popup.send({ type: 'DISCORD', discord }) : undefined}
      googleButton={
        googleClientId ? (
          <GoogleButton
            clientId={googleClientId}
            language={i18n.language}
            onCredential={(credential) => popup.send({ type: 'GOOGLE', credential })}
            onError={onGoogleError}
          />
        ) : undefined
      }
    />
  );
}
