import type { ComponentType } from 'react';
import { createHashRouter, type RouteObject } from 'react-router-dom';
import { Layout } from './layout';
import { RouteError, ScreenNotLoaded } from './route-error';
import { NOT_FOUND, ROUTES, type RoutePath } from '../lib/paths';
import { DiscoverPage } from '../features/discover/discover-page';
import type { LegalTexts } from '../features/legal/content/types';
import { loadScreenTexts } from '../i18n/i18n';

type Screen = () => Promise<{ Component: ComponentType }>;

/**
 * A screen in a chunk of its own: the module to load and the component it holds. It loads
 * with the English texts of the screens after the first (`loadScreenTexts`); either failing
 * to arrive fails the screen with {@link ScreenNotLoaded}.
 */
function chunk<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Screen {
  return async () => {
    const [module] = await Promise.all([load(), loadScreenTexts()]).catch((cause: unknown) => {
      throw new ScreenNotLoaded('', { cause });
    });
    return { Component: pick(module) };
  };
}

const legal = (page: keyof LegalTexts) =>
  chunk(
    () => import('../features/legal/legal-page'),
    ({ LegalPage }) =>
      function Legal() {
        return <LegalPage page={page} />;
      },
  );

// The first screen ships in the entry chunk; every other screen is its own chunk, loaded
// when first visited (route-level code splitting keeps the first load small). Keyed by the
// route table's paths, so a route without a screen, or a screen without a route, does not compile.
const SCREENS: Record<Exclude<RoutePath, '/'>, Screen> = {
  '/detail': chunk(
    () => import('../features/detail/detail-page'),
    (m) => m.DetailPage,
  ),
  '/favorite': chunk(
    () => import('../features/favorites/favorites-page'),
    (m) => m.FavoritesPage,
  ),
  '/recent-chats': chunk(
    () => import('../features/recent-chats/recent-chats-page'),
    (m) => m.RecentChatsPage,
  ),
  '/privacy-notice': legal('privacy'),
  '/terms-of-use': legal('terms'),
  '/community-guidelines': legal('guidelines'),
  '/faq': legal('faq'),
  '/support': chunk(
    () => import('../features/support/support-page'),
    (m) => m.SupportPage,
  ),
  '/verify-email-address': chunk(
    () => import('../features/verify/verify-page'),
    (m) => m.VerifyPage,
  ),
  '/chat-detail': chunk(
    () => import('../features/chat/chat-page'),
    (m) => m.ChatPage,
  ),
  '/chat-profile': chunk(
    () => import('../features/chat-profile/chat-profile-page'),
    (m) => m.ChatProfilePage,
  ),
  '/search': chunk(
    () => import('../features/search/search-page'),
    (m) => m.SearchPage,
  ),
  '/mine': chunk(
    () => import('../features/mine/mine-page'),
    (m) => m.MinePage,
  ),
  '/category': chunk(
    () => import('../features/category/category-page'),
    (m) => m.CategoryPage,
  ),
  '/profile': chunk(
    () => import('../features/profile/profile-page'),
    (m) => m.ProfilePage,
  ),
  '/follow-list': chunk(
    () => import('../features/follow-list/follow-list-page'),
    (m) => m.FollowListPage,
  ),
  '/for-you': chunk(
    () => import('../features/for-you/for-you-page'),
    (m) => m.ForYouPage,
  ),
  '/creator': chunk(
    () => import('../features/creator/creator-page'),
    (m) => m.CreatorPage,
  ),
  '/moderation': chunk(
    () => import('../features/moderation/moderation-page'),
    (m) => m.ModerationPage,
  ),
  '/reset-password': chunk(
    () => import('../features/reset-password/reset-password-page'),
    (m) => m.ResetPasswordPage,
  ),
  '/generate': chunk(
    () => import('../features/generate/generate-page'),
    (m) => m.GeneratePage,
  ),
  '/subscription': chunk(
    () => import('../features/shop/subscription-page'),
    (m) => m.SubscriptionPage,
  ),
  '/single-package': chunk(
    () => import('../features/shop/single-package-page'),
    (m) => m.SinglePackagePage,
  ),
  '/user-subscription': chunk(
    () => import('../features/shop/user-subscription-page'),
    (m) => m.UserSubscriptionPage,
  ),
};

/** What stands for the app while its first screen's chunk loads: nothing. */
function DrawNothing() {
  return null;
}

/** The route table of docs/product.md under one layout, each route carrying its header/footer flags. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // The first screen's chunk may still be loading when the router starts: nothing is drawn
    // meanwhile (without it React Router warns on every load).
    HydrateFallback: DrawNothing,
    children: [
      {
        // A screen that throws shows its error inside the layout, not a blank page.
        errorElement: <RouteError />,
        children: [
          ...ROUTES.map(({ path, ...entry }): RouteObject =>
            path === '/'
              ? { path, handle: entry, element: <DiscoverPage /> }
              : { path, handle: entry, lazy: SCREENS[path] },
          ),
          {
            path: '*',
            handle: NOT_FOUND,
            lazy: chunk(
              () => import('../features/pages/not-found-page'),
              (m) => m.NotFoundPage,
            ),
          },
        ],
      },
    ],
  },
];

/** The app's hash router. */
export const createRouter = () => createHashRouter(routes);
