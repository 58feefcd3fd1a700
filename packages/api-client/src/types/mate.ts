import type { Gender, IsoDateTime, LanguageCode, PageQuery } from './common';

/** Who made a mate, as shown on cards. */
export interface CreatorSummary {
  /** The creator's id (a user uuid). */
  creatorId: string;
  /** Display name. */
  name: string;
  /** Avatar image URL, or `null`. */
  avatar: string | null;
}

/** A creator with the figures shown on the follow list and detail page. */
export interface Creator extends CreatorSummary {
  /** A short self-description. */
  bio: string;
  /** How many users follow this creator. */
  followers: number;
  /** How many of this creator's mates the caller may see (public; mature ones only with `nfsw` on). */
  mates: number;
}

/** Figures about a mate. */
export interface MateCounters {
  /** Rooms opened with this mate. */
  chats: number;
  /** Messages exchanged with this mate. */
  messages: number;
  /** Users who keep this mate as a favorite. */
  favorites: number;
  /** Reviews written. */
  reviews: number;
  /** Average review rating from 1 to 5, or `null` before the first review. */
  rating: number | null;
}

/**
 * Every visibility a mate may have: `public` (everyone), `private` (only its creator) and
 * `draft` (only its creator; unfinished work that may lack a greeting and cannot be chatted
 * with or published until it has one).
 */
export const MATE_VISIBILITIES = ['public', 'private', 'draft'] as const;

/** Who may see a mate: everyone, or only its creator (`private`, `draft`). */
export type MateVisibility = (typeof MATE_VISIBILITIES)[number];

/**
 * A mate as lists show it (discover, search, favorites, trending).
 * Card fields keep the Character Card V2 names so that cards import and export as they are.
 */
export interface MateSummary {
  /** Mate id. */
  mateId: string;
  /** Character Card V2 `name`. */
  name: string;
  /** Portrait image URL. */
  avatar: string;
  /** A one-line teaser for cards (derived from the description when the creator gave none). */
  tagline: string;
  /** Character Card V2 `tags`: tag keys. */
  tags: string[];
  /** The mate's gender. */
  gender: Gender;
  /** Not safe for work: shown only to users who turned the preference on. */
  nsfw: boolean;
  /** Who made it. */
  creator: CreatorSummary;
  /** Its figures. */
  counters: MateCounters;
}

/** A whole mate: the Character Card V2 fields plus what the product adds. */
export interface Mate extends MateSummary {
  /** Character Card V2 `description`: who the character is. */
  description: string;
  /** Character Card V2 `personality`. */
  personality: string;
  /** Character Card V2 `scenario`: where and when the chat takes place. */
  scenario: string;
  /** Character Card V2 `first_mes`: the greeting that opens every room. */
  first_mes: string;
  /** Character Card V2 `mes_example`: example dialogue, `<START>`-separated. */
  mes_example: string;
  /** Character Card V2 `creator_notes`: notes for users, not sent to the model. */
  creator_notes: string;
  /** Character Card V2 `system_prompt`; empty means the server builds one from the card. */
  system_prompt: string;
  /** Character Card V2 `alternate_greetings`. */
  alternate_greetings: string[];
  /** Public, or only for its creator. */
  visibility: MateVisibility;
  /**
   * The voice it speaks in (an id from `GET /voice/voices`), or `null` for the default voice
   * that fits its gender and language.
   */
  voice: string | null;
  /**
   * Why moderators hid this mate, shown to its creator and to administrators only; `null` when
   * it is not hidden (and always `null` for anyone else, who cannot open a hidden mate).
   */
  moderation: MateModeration | null;
  /** When it was created. */
  createdAt: IsoDateTime;
  /** When it last changed. */
  updatedAt: IsoDateTime;
}

/** A mate hidden by moderators: gone from discovery, search, trending and rooms of others. */
export interface MateModeration {
  /** The reason, one of the report reasons. */
  reason: MateFeedbackReason;
  /** The moderator's words to the creator; may be empty. */
  note: string;
  /** When it was hidden. */
  hiddenAt: IsoDateTime;
}

/** One of the caller's own mates, as "Your mates" lists it. */
export interface OwnMateSummary extends MateSummary {
  /** Public, private or draft. */
  visibility: MateVisibility;
  /** Why moderators hid it, or `null`. */
  moderation: MateModeration | null;
  /** When it last changed. */
  updatedAt: IsoDateTime;
}

/** Query of `GET /mate/myMates`: the caller's own mates, most recently changed first. */
export interface MyMatesQuery extends PageQuery {
  /** Only mates of this visibility; absent for all. */
  visibility?: MateVisibility;
}

/** Payload of `POST /mate/setVisibility`: publish, unpublish or shelve one of the caller's mates. */
export interface SetVisibilityPayload {
  /** One of the caller's own mates. */
  mateId: string;
  /** The new visibility; `public` and `private` need a greeting. */
  visibility: MateVisibility;
}

/**
 * Payload of `POST /mate/setPortrait`: gives one of the caller's mates a new portrait, either
 * an uploaded image or one of `GET /mate/portraitChoices`.
 */
export type SetPortraitPayload =
  | {
      /** One of the caller's own mates. */
      mateId: string;
      /**
       * A PNG, JPEG, WebP or GIF image, base64-encoded, at most 8 MB and at least 256 pixels on
       * its short side. The server checks it, crops and resizes it to 512×768 and strips its
       * metadata (location, camera, comments).
       */
      image: string;
      /** Not used with `image`. */
      choiceId?: undefined;
    }
  | {
      /** One of the caller's own mates. */
      mateId: string;
      /** A `choiceId` from `GET /mate/portraitChoices`. */
      choiceId: string;
      /** Not used with `choiceId`. */
      image?: undefined;
    };

/** Query of `GET /mate/portraitChoices`. */
export interface PortraitChoicesQuery {
  /** Words the portraits are drawn from, usually the mate's name; a new seed gives new ones. */
  seed: string;
}

/** A generated portrait the creator may pick. */
export interface PortraitChoice {
  /** What to send as `choiceId` to `POST /mate/setPortrait`. */
  choiceId: string;
  /** The portrait to show (a `data:` URL of an SVG image). */
  url: string;
}

/** Query of `GET /mate/creatorMates`: a creator's public mates, newest first. */
export interface CreatorMatesQuery extends PageQuery {
  /** The creator. */
  creatorId: string;
}

/** Answer of `GET /mate/creatorInfo`: what a creator's page shows above their mates. */
export interface CreatorProfile extends Creator {
  /** Whether the caller follows this creator (`false` when anonymous or for oneself). */
  isFollowing: boolean;
  /** Whether this is the caller's own page. */
  isSelf: boolean;
  /** When the creator joined. */
  joinedAt: IsoDateTime;
}

/** Query of `GET /mate/getMateDetail` and `GET /mate/mateExtraInfo`. */
export interface MateQuery {
  /** The mate's id. */
  mateId: string;
}

/** Query of `GET /mate/recommend`. */
export interface RecommendQuery extends PageQuery {
  /** Tag keys to prefer; empty or absent for all. Sent comma-separated. */
  tags?: string[];
  /** Only mates of this gender. */
  gender?: Gender;
}

/** Every order `GET /mate/search` can sort by; the first is the default. */
export const SEARCH_SORTS = ['relevance', 'popular', 'newest'] as const;

/** The order of search results. */
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Query of `GET /mate/search`. */
export interface SearchQuery extends PageQuery {
  /** Words to find in name, tagline, description and tags (case- and accent-insensitive). */
  keyword: string;
  /** Only mates carrying all these tag keys. */
  tags?: string[];
  /** Only mates of this gender. */
  gender?: Gender;
  /** Order of the results; default `relevance`. */
  sort?: SearchSort;
}

/** A review of a mate. */
export interface Review {
  /** Review id. */
  reviewId: string;
  /** The mate reviewed. */
  mateId: string;
  /** Who wrote it. */
  author: CreatorSummary;
  /** 1 to 5 stars. */
  rating: number;
  /** Up to 2,000 characters; may be empty. */
  content: string;
  /** When it was written (or last changed: one review per user and mate). */
  createdAt: IsoDateTime;
}

/** Star counts and average of a mate's reviews. */
export interface ReviewSummary {
  /** Average rating, or `null` without reviews. */
  average: number | null;
  /** How many reviews. */
  count: number;
  /** Reviews per star: index 0 holds one-star reviews, index 4 five-star ones. */
  distribution: [number, number, number, number, number];
}

/** Answer of `GET /mate/mateExtraInfo`: what the detail page shows around the card. */
export interface MateExtraInfo {
  /** The mate's id. */
  mateId: string;
  /** Who made it, with follower figures. */
  creator: Creator;
  /** The mate's figures. */
  counters: MateCounters;
  /** The review figures. */
  reviewSummary: ReviewSummary;
  /** The latest reviews, newest first (at most 10). */
  recentReviews: Review[];
  /** Whether the caller keeps this mate as a favorite (`false` when anonymous). */
  isFavorite: boolean;
  /** Whether the caller follows the creator (`false` when anonymous). */
  isFollowingCreator: boolean;
}

/** Payload of `POST /mate/review`: writes or replaces the caller's review. */
export interface ReviewPayload {
  /** The mate reviewed. */
  mateId: string;
  /** 1 to 5 stars. */
  rating: number;
  /** Up to 2,000 characters; absent keeps the words of the caller's earlier review. */
  content?: string;
}

/** Every reason a user may report a mate for, in the order the report form lists them. */
export const MATE_FEEDBACK_REASONS = [
  'inappropriate',
  'underage',
  'broken',
  'copyright',
  'other',
] as const;

/** Why a user reports a mate. */
export type MateFeedbackReason = (typeof MATE_FEEDBACK_REASONS)[number];

/** Payload of `POST /mate/feedback`: a report about a mate. */
export interface MateFeedbackPayload {
  /** The mate reported. */
  mateId: string;
  /** Why. */
  reason: MateFeedbackReason;
  /** Details, up to 2,000 characters. */
  content?: string;
}

/** A word people searched for recently. */
export interface HotWord {
  /** The word or phrase. */
  word: string;
  /** Searches for it in the recent window, each person counted once a day. */
  count: number;
}

/** One row of `GET /mate/trendingRank`. */
export interface TrendingEntry {
  /** 1-based rank. */
  rank: number;
  /** The mate. */
  mate: MateSummary;
  /** Chats with it in the sliding window (the last 7 days). */
  recentChats: number;
}

/** Answer of `GET /user/doFavorite`: the new state of the toggle. */
export interface FavoriteState {
  /** The mate toggled. */
  mateId: string;
  /** Whether it is now a favorite. */
  favorite: boolean;
}

/** Query of `GET /mate/followCreator`. */
export interface FollowCreatorQuery {
  /** The creator to follow or unfollow. */
  creatorId: string;
}

/** Answer of `GET /mate/followCreator`: the new state of the toggle. */
export interface FollowState {
  /** The creator toggled. */
  creatorId: string;
  /** Whether the caller now follows them. */
  following: boolean;
}

/** One row of `GET /mate/followList`. */
export interface FollowedCreator extends Creator {
  /** When the caller started following. */
  followedAt: IsoDateTime;
}

/** A tag that mates carry and users pick. */
export interface Tag {
  /** Stable key, lowercase with dashes, e.g. `slice-of-life`. */
  key: string;
  /** Label in the caller's language. */
  label: string;
  /** The key of the group it belongs to. */
  group: string;
}

/** One group of `GET /extra/tagsMap`: tags ordered for display. */
export interface TagGroup {
  /** Group key, e.g. `genre`. */
  key: string;
  /** Group label in the caller's language. */
  label: string;
  /** The group's tags. */
  tags: Tag[];
}

/** What `GET /extra/publicConfig` tells the app about the server: the sign-in providers it has. */
export interface PublicConfig {
  /** The product's name, as the sign-in heading carries it. */
  productName: string;
  /** The Google Identity Services client id, or `null` when Google sign-in is not set up. */
  googleClientId: string | null;
  /** Discord's authorize redirect, or `null` when Discord sign-in is not set up. */
  discord: {
    /** The Discord application's client id. */
    clientId: string;
    /** Where Discord sends the browser back to: the server's `/user/loginDiscord`. */
    redirectUri: string;
  } | null;
}

/** The chats one role draft (`POST /mate/generateRole`, all fields or one) costs. */
export const ROLE_DRAFT_COST_CHATS = 1;

/** Every field of a {@link MateDraft} that `POST /mate/generateRole` can write again alone. */
export const REGENERABLE_FIELDS = [
  'name',
  'tagline',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'alternate_greetings',
  'tags',
] as const;

/** A field the model can write again alone. */
export type RegenerableField = (typeof REGENERABLE_FIELDS)[number];

/**
 * Payload of `POST /mate/generateRole`: a short idea the model turns into a mate. With `field`
 * and `draft`, the model writes only that field again, fitting the rest of the draft.
 */
export interface GenerateRolePayload {
  /** What the mate should be, in a sentence or two (1–1,000 characters). */
  idea: string;
  /** The mate's gender; absent lets the model choose. */
  gender?: Gender;
  /** Tag keys the mate should carry (at most 10); the model may add fitting ones. */
  tags?: string[];
  /** Whether the mate may be not safe for work; default `false`. */
  nsfw?: boolean;
  /** The language to write in; default the caller's language. */
  language?: LanguageCode;
  /** Write only this field again; needs `draft`. */
  field?: RegenerableField;
  /** The draft as the creator has it now (with `field`). */
  draft?: MateDraft;
}

/** The editable fields of a mate: what role generation drafts and `saveMate` stores. */
export interface MateDraft {
  name: string;
  tagline: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  alternate_greetings: string[];
  /** Tag keys from `GET /extra/tags`. */
  tags: string[];
  gender: Gender;
  nsfw: boolean;
}

/**
 * The longest each text field of a mate may be, in UTF-16 units (as JavaScript's `length`
 * counts): what `POST /mate/saveMate` accepts, what an imported card is fitted to, and what the
 * studio checks before sending. Its keys are the text fields of a {@link MateDraft}; this is
 * the one list of them and their limits, which the server and the apps derive theirs from.
 */
export const MATE_TEXT_LIMITS = {
  name: 100,
  tagline: 200,
  description: 8000,
  personality: 2000,
  scenario: 4000,
  first_mes: 8000,
  mes_example: 8000,
  creator_notes: 2000,
  system_prompt: 8000,
} as const satisfies Record<MateTextField, number>;

/** A text field of a mate: one of the keys of {@link MATE_TEXT_LIMITS}. */
export type MateTextField = {
  [K in keyof MateDraft]: string extends MateDraft[K] ? K : never;
}[keyof MateDraft];

/** How many alternate greetings a mate may have, and how long each may be (UTF-16 units). */
export const ALTERNATE_GREETINGS_LIMIT = { count: 10, length: 8000 } as const;

/** How many tags a mate may carry. */
export const MATE_TAGS_LIMIT = 10;

/** Payload of `POST /mate/saveMate`: creates the caller's mate, or updates one of theirs. */
export interface SaveMatePayload extends MateDraft {
  /** The caller's mate to update; absent to create one. */
  mateId?: string;
  /** Its voice (an id from `GET /voice/voices`), `null` for the default; absent keeps it. */
  voice?: string | null;
  /** Who may see it; absent keeps an existing mate's, and makes a new one `private`. */
  visibility?: MateVisibility;
}
