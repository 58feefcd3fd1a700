/** A notification the app shows at the top of the screen. */
export interface Notice {
  /** Negative for failures: the only tone the errors of docs/product.md ask for. */
  tone: 'negative' | 'positive';
  /** The text. */
  message: string;
  /** How long it stays, in milliseconds. */
  durationMs: number;
}

/** What the flows do to the world around them; the app passes real ones, tests fakes. */
export interface Platform {
  /** Reloads the page (after sign-in, verification, a language change). */
  reload: () => void;
  /** Goes to an app path, e.g. `/` or `/verify-email-address?redirect_url=…`. */
  navigate: (path: string) => void;
  /** Leaves the app for another site (the Discord authorize page). */
  redirect: (url: string) => void;
  /** The app path now shown, with its query, e.g. `/detail?mateId=…`. */
  currentPath: () => string;
  /** Shows a top notification. */
  notify: (notice: Notice) => void;
  /** Records an error that is not shown to the user (docs/product.md, errors). */
  logError: (message: string, error: unknown) => void;
}
