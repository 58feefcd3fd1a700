import type { UserBenefits } from '@mates/api-client';

/** How often the e-mail verification is polled (docs/product.md, constants). */
export const POLL_INTERVAL_MS = 2000;

/** How long a top notification stays (docs/product.md, constants). */
export const NOTIFICATION_MS = 3000;

/** The language of a new or logged-out visitor (docs/product.md, constants). */
export const DEFAULT_LANGUAGE = 'en';

/** What a masked value shows: six asterisks (docs/product.md, constants). */
export const MASKED_PLACEHOLDER = '******';

/** The default width of a dialog, in pixels (docs/product.md, constants). */
export const DIALOG_WIDTH_PX = 500;

/** How long a dialog takes to open or close (docs/product.md, constants). */
export const DIALOG_TRANSITION_MS = 300;

/** How long a dialog that must not close shakes when Escape is pressed (docs/product.md, constants). */
export const ESCAPE_SHAKE_MS = 170;

/** The OAuth scope asked of Discord (docs/product.md, calls). */
export const DISCORD_SCOPE = 'identify email';

/** Where Discord sends the browser back with `?code=…` (docs/product.md, routes). */
export const DISCORD_REDIRECT_PATH = '/user/loginDiscord';

/** Where a forgotten password is reset: asking for a link, and using it. */
export const RESET_PASSWORD_PATH = '/reset-password';

/** The page that waits for the e-mail to be verified (docs/product.md, routes). */
export const VERIFY_EMAIL_PATH = '/verify-email-address';

/** The two modes of the sign-up / sign-in popup (docs/product.md, routes). */
export const AUTH_MODE = {
  /** Mode 1: "Create your account". */
  signUp: 1,
  /** Mode 2: sign in. */
  signIn: 2,
} as const;

/** Mode 1 (sign-up) or mode 2 (sign-in). */
export type AuthMode = (typeof AUTH_MODE)[keyof typeof AUTH_MODE];

/** Benefits before the server says otherwise: 0 chats, 0 gold coins (docs/product.md, constants). */
export const DEFAULT_BENEFITS: UserBenefits = Object.freeze({
  chats: 0,
  goldCoins: 0,
  userId: null,
});

/** How often a picture job's status is asked for while it is queued or running. */
export const IMAGE_POLL_INTERVAL_MS = 1500;

/** How many network failures in a row a picture job's poller waits out before it gives up. */
export const IMAGE_POLL_MAX_RETRIES = 5;

/** The longest wait between two asks after network failures (the backoff doubles up to it). */
export const IMAGE_POLL_MAX_BACKOFF_MS = 30_000;

/** A speech link closer than this to its expiry is asked for again rather than played. */
export const SPEECH_LINK_MARGIN_MS = 60_000;

/** How often a checkout's status is asked for while the payment is being confirmed. */
export const CHECKOUT_POLL_INTERVAL_MS = 2000;

/** How long the page waits for a payment to be confirmed before it says it timed out. */
export const CHECKOUT_DEADLINE_MS = 120_000;
