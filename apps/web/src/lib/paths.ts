/** A route of docs/product.md: its path, its screen's name, and whether header and footer show. */
export interface RouteEntry<Path extends string = string> {
  path: Path;
  screen: string;
  header: boolean;
  footer: boolean;
}

/**
 * Every route of docs/product.md, exactly as its table says. `as const` keeps each path a
 * literal, so {@link RoutePath} lists them and a mistyped path does not compile.
 */
export const ROUTES = [
  { path: '/', screen: 'discover page', header: true, footer: true },
  { path: '/detail', screen: 'role detail', header: true, footer: true },
  { path: '/favorite', screen: 'favorites', header: true, footer: true },
  { path: '/recent-chats', screen: 'recent chats', header: true, footer: true },
  { path: '/privacy-notice', screen: 'privacy notice', header: true, footer: true },
  { path: '/terms-of-use', screen: 'terms of use', header: true, footer: true },
  { path: '/support', screen: 'support', header: true, footer: true },
  { path: '/faq', screen: 'FAQ', header: true, footer: true },
  { path: '/community-guidelines', screen: 'community guidelines', header: true, footer: true },
  {
    path: '/verify-email-address',
    screen: 'e-mail address verification',
    header: true,
    footer: true,
  },
  { path: '/chat-detail', screen: 'chat conversation', header: false, footer: false },
  { path: '/generate', screen: 'role generation', header: false, footer: false },
  { path: '/search', screen: 'search', header: true, footer: false },
  { path: '/mine', screen: 'personal area', header: false, footer: false },
  { path: '/category', screen: 'category page', header: false, footer: false },
  { path: '/single-package', screen: 'single package', header: true, footer: true },
  { path: '/subscription', screen: 'subscription', header: true, footer: true },
  { path: '/chat-profile', screen: 'chat profile', header: false, footer: false },
  { path: '/profile', screen: 'profile', header: true, footer: true },
  { path: '/user-subscription', screen: 'user subscription', header: false, footer: false },
  { path: '/follow-list', screen: 'follow list', header: true, footer: true },
  { path: '/for-you', screen: 'for-you feed', header: true, footer: true },
  // Additions of this project: new paths, because /profile is the signed-in user's own page.
  { path: '/creator', screen: 'creator page', header: true, footer: true },
  { path: '/moderation', screen: 'moderation queue', header: true, footer: true },
  // An addition for a forgotten password: asking for a reset link, and using it.
  { path: '/reset-password', screen: 'password reset', header: true, footer: true },
] as const satisfies readonly RouteEntry[];

/** A path of the route table: `'/'`, `'/detail'`, … (any other path is the not-found page). */
export type RoutePath = (typeof ROUTES)[number]['path'];

/** Any other path: the not-found page, with header and footer. */
export const NOT_FOUND: Omit<RouteEntry, 'path'> = {
  screen: 'not found',
  header: true,
  footer: true,
};

/**
 * Where the router goes for a route, e.g. `routeTo('/chat-detail', { roomId })` →
 * `/chat-detail?roomId=…`, for `navigate()`; the path must be one of the route table's.
 */
export function routeTo(path: RoutePath, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${path}${search ? `?${search}` : ''}`;
}

/**
 * A hash link to a route, e.g. `href('/detail', { mateId })` → `#/detail?mateId=…`; the path
 * must be one of the route table's ({@link RoutePath}), so a link cannot point nowhere.
 */
export function href(path: RoutePath, query: Record<string, string> = {}): string {
  return `#${routeTo(path, query)}`;
}
