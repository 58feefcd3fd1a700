import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigate, useNavigation } from 'react-router-dom';
import { useAtom, useSelector as useStoreSelector } from '@xstate/store-react';
import { AppFrame, Footer, Header, Spinner } from '@mates/ui';
import { AUTH_MODE, isLoggedIn } from '@mates/state-machines';
import { useServices } from '../lib/services-context';
import { href, type RouteEntry } from '../lib/paths';
import { useDiscordGuard } from './discord-guard';
import { useRouterLinks } from './use-router-links';
import { LANGUAGES } from '../i18n/i18n';
import { messageText } from '../i18n/error-text';
import { LoadFailureBoundary } from './load-failure-boundary';

// Neither is needed to draw a screen: they load when first shown (the popup also when idle).
const SignInPopup = lazy(() =>
  import('../lib/sign-in-popup').then(({ SignInPopup }) => ({ default: SignInPopup })),
);
const Toaster = lazy(() => import('./toaster'));

// A signed-in person's places, in the header: links on wide screens, a menu on phones.
const PLACES = [
  ['/recent-chats', 'shell.recentChats'],
  ['/favorite', 'shell.favorites'],
  ['/mine', 'shell.mine'],
  ['/user-subscription', 'shell.plan'],
] as const;

/** The one layout every route sits under: header and footer as the route table says. */
export function Layout() {
  const { t } = useTranslation();
  const { client, platform, store, notices, popup } = useServices();
  const matches = useMatches();
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const route = matches.at(-1)?.handle as Omit<RouteEntry, 'path'> | undefined;
  const main = useRef<HTMLDivElement>(null);
  const user = useStoreSelector(store, (state) => state.context);
  const notified = useStoreSelector(notices, (state) => state.context.notices);
  // The client's own fallbacks ("something error") in the person's language.
  const toasts = useMemo(
    () => notified.map((notice) => ({ ...notice, message: messageText(notice.message, t) })),
    [notified, t],
  );
  const popupActor = useAtom(popup.actor);
  // The notifications load with the first one, and stay for the ones after.
  const [toaster, setToaster] = useState(false);
  if (toasts.length > 0 && !toaster) setToaster(true);
  useDiscordGuard();
  useRouterLinks();

  // After each navigation the main container scrolls to the top (docs/product.md, routes).
  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [location.pathname, location.search]);

  const loadingPage = <Spinner label={t('shell.loadingPage')} />;
  return (
    <>
      <AppFrame
        ref={main}
        label={t('shell.mainContent')}
        skipLabel={t('shell.skipToContent')}
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
              onSearch={(query) =>
                navigate(query ? `/search?q=${encodeURIComponent(query)}` : '/search')
              }
              // The search page has a field of its own (hidden as soon as it is being opened).
              showSearch={(navigation.location ?? location).pathname !== '/search'}
              profileHref={href('/profile')}
              places={PLACES.map(([path, label]) => ({
                href: href(path),
                label: t(label),
                current: location.pathname === path,
              }))}
              languages={LANGUAGES}
              language={user.userInfo.language}
              onLanguageChange={(language) => store.trigger.languageChanged({ language })}
              labels={{
                search: t('shell.search'),
                places: t('shell.places'),
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
              onSignIn={() => popup.open(AUTH_MODE.signIn)}
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
      {/* Offline, their code may not load: the screen stays, without them. */}
      {popupActor ? (
        <LoadFailureBoundary
          onError={(error) => platform.logError('The sign-in popup could not load', error)}
        >
          <Suspense fallback={null}>
            <SignInPopup actor={popupActor} client={client} platform={platform} />
          </Suspense>
        </LoadFailureBoundary>
      ) : null}
      {toaster ? (
        <LoadFailureBoundary
          onError={(error) => platform.logError('The notifications could not load', error)}
        >
          <Suspense fallback={null}>
            <Toaster
              notices={toasts}
              onDismiss={(id) => notices.trigger.dismissed({ id })}
              labels={{
                region: t('common.notifications'),
                dismiss: t('common.dismissNotification'),
              }}
            />
          </Suspense>
        </LoadFailureBoundary>
      ) : null}
    </>
  );
}
