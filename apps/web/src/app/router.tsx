import { createHashRouter, type RouteObject } from 'react-router-dom';
import { Layout } from './layout';
import { NOT_FOUND, ROUTES } from './paths';
import { DiscoverPage } from '../features/discover/discover-page';
import { DetailPage } from '../features/detail/detail-page';
import { ChatPage } from '../features/chat/chat-page';
import { VerifyPage } from '../features/verify/verify-page';
import { PlannedPage } from '../features/pages/planned-page';
import { NotFoundPage } from '../features/pages/not-found-page';

const SCREENS: Record<string, () => React.ReactElement> = {
  '/': () => <DiscoverPage />,
  '/detail': () => <DetailPage />,
  '/chat-detail': () => <ChatPage />,
  '/verify-email-address': () => <VerifyPage />,
};

/** The route table of SPEC.md §2 under one layout, each route carrying its header/footer flags. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...ROUTES.map(({ path, ...entry }) => ({
        path,
        handle: entry,
        element: SCREENS[path]?.() ?? <PlannedPage screen={entry.screen} />,
      })),
      { path: '*', handle: NOT_FOUND, element: <NotFoundPage /> },
    ],
  },
];

/** The app's hash router. */
export const createRouter = () => createHashRouter(routes);
