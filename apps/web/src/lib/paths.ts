/** A route of docs/product.md: its path, its screen's name, and whether header and footer show. */
export interface RouteEntry {
  path: string;
  screen: string;
  header: boolean;
  footer: boolean;
}

/** Every route of docs/product.md, exactly as its table says. */
export const ROUTES: RouteEntry[] = [
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
];

/** Any other path: the not-found page, with header and footer. */
export const NOT_FOUND: Omit<RouteEntry, 'path'> = {
  screen: 'not found',
  header: true,
  footer: true,
};

/** A hash link to an app path, e.g. `href('/detail', { mateId })` → `#/detail?mateId=…`. */
export function href(path: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `#${path}${search ? `?${search}` : ''}`;
}
