import { createHashRouter, type RouteObject } from 'react-router-dom';
import { Layout } from './layout';
import { NOT_FOUND, ROUTES } from './paths';
import { DiscoverPage } from '../features/discover/discover-page';

type Screen = () => Promise<{ Component: React.ComponentType }>;

// The first screen ships in the entry chunk; every other screen is its own chunk, loaded
// when first visited (route-level code splitting keeps the first load small).
const SCREENS: Record<string, Screen> = {
  '/detail': async () => ({
    Component: (await import('../features/detail/detail-page')).DetailPage,
  }),
  '/favorite': async () => ({
    Component: (await import('../features/favorites/favorites-page')).FavoritesPage,
  }),
  '/recent-chats': async () => ({
    Component: (await import('../features/recent-chats/recent-chats-page')).RecentChatsPage,
  }),
  '/privacy-notice': legal('privacy'),
  '/terms-of-use': legal('terms'),
  '/community-guidelines': legal('guidelines'),
  '/faq': legal('faq'),
  '/support': async () => ({
    Component: (await import('../features/support/support-page')).SupportPage,
  }),
  '/verify-email-address': async () => ({
    Component: (await import('../features/verify/verify-page')).VerifyPage,
  }),
  '/chat-detail': async () => ({
    Component: (await import('../features/chat/chat-page')).ChatPage,
  }),
  '/search': async () => ({
    Component: (await import('../features/search/search-page')).SearchPage,
  }),
  '/mine': async () => ({ Component: (await import('../features/mine/mine-page')).MinePage }),
  '/category': async () => ({
    Component: (await import('../features/category/category-page')).CategoryPage,
  }),
  '/profile': async () => ({
    Component: (await import('../features/profile/profile-page')).ProfilePage,
  }),
  '/follow-list': async () => ({
    Component: (await import('../features/follow-list/follow-list-page')).FollowListPage,
  }),
  '/for-you': async () => ({
    Component: (await import('../features/for-you/for-you-page')).ForYouPage,
  }),
  '/generate': planned('generate'),
  '/subscription': planned('subscription'),
  '/single-package': planned('singlePackage'),
  '/user-subscription': planned('userSubscription'),
  '/chat-profile': planned('chatProfile'),
};

function legal(page: 'privacy' | 'terms' | 'guidelines' | 'faq'): Screen {
  return async () => {
    const { LegalPage } = await import('../features/legal/legal-page');
    return { Component: () => <LegalPage page={page} /> };
  };
}

function planned(
  screen: 'generate' | 'subscription' | 'singlePackage' | 'userSubscription' | 'chatProfile',
): Screen {
  return async () => {
    const { PlannedPage } = await import('../features/pages/planned-page');
    return { Component: () => <PlannedPage screen={screen} /> };
  };
}

/** The route table of SPEC.md §2 under one layout, each route carrying its header/footer flags. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...ROUTES.map(({ path, ...entry }): RouteObject =>
        path === '/'
          ? { path, handle: entry, element: <DiscoverPage /> }
          : { path, handle: entry, lazy: SCREENS[path] },
      ),
      {
        path: '*',
        handle: NOT_FOUND,
        lazy: async () => ({
          Component: (await import('../features/pages/not-found-page')).NotFoundPage,
        }),
      },
    ],
  },
];

/** The app's hash router. */
export const createRouter = () => createHashRouter(routes);
