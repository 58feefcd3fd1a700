import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { AppFrame, AuthPopup, Footer, Header, Toaster } from '@mates/ui';
import { AUTH_MODE, isLoggedIn } from '@mates/state-machines';
import { useServices } from './services-context';
import { href, type RouteEntry } from './paths';

const LANGUAGES = { en: 'English', es: 'Español' };
const FOOTER_LINKS = [
  { href: href('/privacy-notice'), label: 'Privacy notice' },
  { href: href('/terms-of-use'), label: 'Terms of use' },
  { href: href('/community-guidelines'), label: 'Community guidelines' },
  { href: href('/support'), label: 'Support' },
  { href: href('/faq'), label: 'FAQ' },
];

/** The one layout every route sits under: header and footer as the route table says. */
export function Layout() {
  const { store, notices, popup } = useServices();
  const matches = useMatches();
  const location = useLocation();
  const route = matches.at(-1)?.handle as Omit<RouteEntry, 'path'> | undefined;
  const main = useRef<HTMLDivElement>(null);
  const user = useStoreSelector(store, (state) => state.context);
  const popupState = useSelector(popup, (state) => state);
  const toasts = useStoreSelector(notices, (state) => state.context.notices);

  // After each navigation the main container scrolls to the top (SPEC.md §2).
  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [location.pathname, location.search]);

  return (
    <>
      <AppFrame
        ref={main}
        footer={
          route?.footer ? (
            <Footer links={FOOTER_LINKS} note="© 2026 Mates — open source" />
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
        <Outlet />
      </AppFrame>
      <AuthPopup
        open={popupState.matches('open')}
        mode={popupState.context.mode}
        email={popupState.context.email}
        password={popupState.context.password}
        loading={popupState.hasTag('loading')}
        onEmailChange={(value) => popup.send({ type: 'CHANGE_EMAIL', value })}
        onPasswordChange={(value) => popup.send({ type: 'CHANGE_PASSWORD', value })}
        onSubmit={() => popup.send({ type: 'SUBMIT' })}
        onSwitchMode={() => popup.send({ type: 'SWITCH_MODE' })}
        // The machine's CLOSE returns to "/" through the platform's navigate.
        onClose={() => popup.send({ type: 'CLOSE' })}
      />
      <Toaster notices={toasts} onDismiss={(id) => notices.trigger.dismissed({ id })} />
    </>
  );
}
