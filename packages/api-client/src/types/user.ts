import type { IsoDateTime, LanguageCode, Gender } from './common';

/** The signed-in user as login answers it; kept by the web app as "user info". */
export interface UserInfo {
  /** Stable public id of the user. Logged in means this is present. */
  uuid: string;
  /** The session token, sent back in the `token` header of every call. */
  token: string;
  /** Preferred language; default `en`. */
  language: LanguageCode;
  /** The sign-in e-mail address (for Google and Discord accounts, the provider's). */
  email: string;
  /** The name shown to others and used as `{{user}}` when no persona is set. */
  nickname: string;
  /** Avatar image URL, or `null`. */
  avatar: string | null;
  /** Whether the user turned on not-safe-for-work content ("nfsw" in the contract). */
  nfsw: boolean;
  /** Tag keys the user chose for recommendations. */
  tags: string[];
  /** Gender filter the user chose, or `null` for all. */
  gender: Gender | null;
  /** When the account was created. */
  createdAt: IsoDateTime;
  /** Whether the user moderates reports (the server's `ADMIN_EMAILS`). */
  isAdmin: boolean;
  /**
   * Whether the account has a password. One made with Google or Discord has none (so no
   * current password to change) until a reset link mailed to its address sets one.
   */
  hasPassword: boolean;
}

/** Payload of `POST /user/login` and `POST /user/register`. */
export interface Credentials {
  /** E-mail address. */
  email: string;
  /** Password. */
  password: string;
}

/**
 * Answer of `POST /user/register`: the ticket that lets this browser finish sign-up. It is
 * answered for every address, also one that already has an account (whose owner is mailed
 * instead), so that it reveals nothing.
 */
export interface RegisterResult {
  /** Opaque ticket to send with every verify-status poll. */
  verifyTicket: string;
}

/** Payload of `POST /user/verify/status`. */
export interface VerifyStatusPayload {
  /** The address that registered. */
  email: string;
  /**
   * The ticket that register answered. Without it, or with one that is not the latest
   * registration's, already used or expired, the answer is `verified: false` whatever the
   * address: the server tells nobody else whether an address is verified.
   */
  verifyTicket?: string;
}

/** Answer of `POST /user/verify/status`. */
export interface VerifyStatusResult {
  /** Whether this ticket's registration was verified through its mailed link; said once, with the session. */
  verified: boolean;
  /** The user info with a session token, once verified and only with the right ticket. */
  userInfo: UserInfo | null;
}

/** Payload of `POST /user/loginGG`: the ID token from Google Identity Services. */
export interface GoogleLoginPayload {
  /** The Google ID token (a JWT). */
  credential: string;
}

/** Query of `GET /user/loginDiscord`: the OAuth code from the Discord redirect. */
export interface DiscordLoginQuery {
  /** The authorization code. */
  code: string;
}

/** What a user may still spend (docs/product.md); defaults are 0 chats and 0 gold coins. */
export interface UserBenefits {
  /** Chat messages left. */
  chats: number;
  /** Gold coins left (images, voice). */
  goldCoins: number;
  /** The uuid of the user these belong to, or `null` when anonymous. */
  userId: string | null;
}

/** Payload of `POST /user/changePassword`. */
export interface ChangePasswordPayload {
  /** The current password. */
  oldPassword: string;
  /** The new password. */
  newPassword: string;
}

/**
 * Payload of `POST /user/forgotPassword`: mails a reset link to the address when an account
 * uses it. The answer is the same (`null`) whether or not one does, so the call does not tell
 * who has an account.
 */
export interface ForgotPasswordPayload {
  /** The account's e-mail address. */
  email: string;
}

/**
 * Payload of `POST /user/resetPassword`: sets a new password with the token of a mailed reset
 * link. The link works once, for an hour; every session of the account ends.
 */
export interface ResetPasswordPayload {
  /** The token of the reset link (`#/reset-password?token=…`). */
  token: string;
  /** The new password, held to the same rules as at sign-up. */
  password: string;
}

/** Query of `GET /user/updateLange`. */
export interface UpdateLanguageQuery {
  /** The new language. */
  language: LanguageCode;
}

/**
 * Payload of `POST /user/updateNickname`: the name shown on the user's mates, reviews and
 * reports, and the one mates call them by when no persona is chosen. Compatibility forms are
 * folded (NFKC), spaces around it dropped and runs of spaces made one; 1 to
 * {@link NICKNAME_MAX_LENGTH} characters with a letter or a digit, no control or invisible
 * characters, no stacked marks, no e-mail address, and not the caller's address up to the `@`
 * (4000 otherwise). New accounts get a generated one ("Quiet Otter 417"), never made from the
 * e-mail address.
 */
export interface UpdateNicknamePayload {
  /** The new nickname. */
  nickname: string;
}

/**
 * The longest nickname `POST /user/updateNickname` takes, in UTF-16 code units (as a browser's
 * `maxLength` counts them), after its spaces are tidied.
 */
export const NICKNAME_MAX_LENGTH = 40;

/** Payload of `POST /user/updateTags`: the discover preferences of a user. */
export interface UpdateTagsPayload {
  /** Tag keys the user chose. */
  tags: string[];
  /** Gender filter, or `null` for all. */
  gender?: Gender | null;
  /** Whether not-safe-for-work mates may be shown. */
  nfsw?: boolean;
}

/** A persona: who the user plays in a chat (name and description the mate sees). */
export interface Persona {
  /** Persona id. */
  uuid: string;
  /** The name the mate calls the user by. */
  name: string;
  /** What the mate knows about the user. */
  description: string;
  /** Avatar image URL, or `null`. */
  avatar: string | null;
  /** Whether new rooms use this persona. At most one persona is the default. */
  isDefault: boolean;
  /** When it was created. */
  createdAt: IsoDateTime;
  /** When it last changed. */
  updatedAt: IsoDateTime;
}

/** Payload of `POST /user/saveOrUpdatePersona`: without `uuid` it creates one. */
export interface SavePersonaPayload {
  /** The persona to update; absent to create. */
  uuid?: string;
  /** 1–50 characters. */
  name: string;
  /** Up to 2,000 characters. */
  description: string;
  /**
   * Avatar image: an `https:` address or a picture uploaded to the server (`/media/avatars/…`),
   * or `null`. Any other address is refused with a 4000.
   */
  avatar?: string | null;
}

/** Query of `GET /user/setDefaultPersona` and `GET /user/deleteDefaultPersona`. */
export interface PersonaQuery {
  /** The persona's id. */
  uuid: string;
}

/** Every kind of feedback, in the order the support page lists them. */
export const USER_FEEDBACK_CATEGORIES = ['bug', 'idea', 'account', 'billing', 'other'] as const;

/** Kinds of feedback a user can send from the support page. */
export type UserFeedbackCategory = (typeof USER_FEEDBACK_CATEGORIES)[number];

/** Payload of `POST /user/feedback`. */
export interface UserFeedbackPayload {
  /** What the feedback is about. */
  category: UserFeedbackCategory;
  /** 1–5,000 characters. */
  content: string;
  /** Where to answer, if not the account's e-mail. */
  contact?: string;
}
