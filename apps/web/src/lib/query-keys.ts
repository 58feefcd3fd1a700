import type { Gender } from '@mates/api-client';

// The TanStack Query keys that more than one part of the app reads, writes or refreshes: one
// feature's change (a favorite, a follow, a save) refreshes what another one shows, so both
// spell the key from here. A key only one feature uses lives in that feature's `api/`.
// Each key starts with the keys it belongs under, so refreshing the shorter one refreshes them.

/** The person's chats: a room's messages and the lists of rooms. */
export const roomKeys = {
  /** A room's messages, the newest page first (the chat; the chat profile refreshes it). */
  messages: (roomId: string) => ['room', roomId] as const,
  /** Every list of the person's chats: the recent-chats page, and the chat's side list. */
  lists: () => ['roomList'] as const,
  /** The chat's side list, searched by the mate's name. */
  search: (keyword: string) => [...roomKeys.lists(), { keyword }] as const,
};

/** Mates: one mate's page, what the caller has with it, their own mates, the lists. */
export const mateKeys = {
  /** One mate's card (`/mate/getMateDetail`): its page, the studio, moderation. */
  detail: (mateId: string) => ['mate', mateId] as const,
  /** What every caller has with every mate (favorite, follow, reviews). */
  extras: () => ['mateExtra'] as const,
  /** What the caller has with one mate, whoever is signed in. */
  extra: (mateId: string) => [...mateKeys.extras(), mateId] as const,
  /** What the caller has with one mate, as a visitor or signed in. */
  extraFor: (mateId: string, signedIn: boolean) => [...mateKeys.extra(mateId), signedIn] as const,
  /** Every list of the caller's own mates (refreshed after each change or import). */
  mine: () => ['myMates'] as const,
  /** The caller's own mates, one tab of them. */
  mineOf: (filter: string) => [...mateKeys.mine(), filter] as const,
  /** Recommendations for the chosen tags and gender (Discover). */
  recommended: (tags: readonly string[], gender: Gender | null) =>
    ['recommend', tags, gender] as const,
  /** Recommendations of one tag (Categories). */
  ofCategory: (tag: string) => ['recommend', 'category', tag] as const,
  /** Recommendations for the tags the person picked (For you). */
  forYou: (tags: readonly string[]) => ['recommend', 'for-you', tags] as const,
  /** The trending ranking (For you, Search). */
  trending: () => ['trendingRank'] as const,
};

/** Creators: who the caller follows and one creator's page. */
export const creatorKeys = {
  /** The creators the caller follows. */
  followed: () => ['followList'] as const,
  /** One creator's page, whoever is signed in. */
  info: (creatorId: string) => ['creatorInfo', creatorId] as const,
  /** One creator's page, as a visitor or signed in (whether the caller follows them). */
  infoFor: (creatorId: string, signedIn: boolean) =>
    [...creatorKeys.info(creatorId), signedIn] as const,
};

/** What belongs to the signed-in person. */
export const userKeys = {
  /** Their personas (who they play in a chat). */
  personas: () => ['personas'] as const,
  /** Their favorite mates. */
  favorites: () => ['favorites'] as const,
  /** What they have left (chats, gold coins). */
  benefits: () => ['benefits'] as const,
};

/** What the server offers everyone. */
export const serverKeys = {
  /** The tag groups, with labels in the person's language. */
  tags: (language: string) => ['tagsMap', language] as const,
  /** The voices text to speech can use. */
  voices: () => ['voice', 'voices'] as const,
  /** The public configuration (the product's name, the sign-in providers). */
  publicConfig: () => ['publicConfig'] as const,
};
