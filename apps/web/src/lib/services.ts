import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { ApiError, createApiClient, type ApiClient } from '@mates/api-client';
import {
  AUTH_MODE,
  createUserStore,
  USER_STORE_KEY,
  type KeyValueStorage,
  type Platform,
  type UserStore,
} from '@mates/state-machines';
import { createNoticeStore, type NoticeStore } from './notices';
import { forgetDeviceWork, keepDeviceWorkFor } from './device-work';
import { createSignInPopup, type SignInPopup } from './sign-in';
import { createDiscordStates, type DiscordStates } from './discord-state';
import { createI18n, LANGUAGES, switchLanguage } from '../i18n/i18n';

/** Everything the screens use, made once at start. */
export interface Services {
  client: ApiClient;
  store: UserStore;
  notices: NoticeStore;
  queries: QueryClient;
  popup: SignInPopup;
  /** The OAuth states of Discord sign-ins this tab started. */
  discordStates: DiscordStates;
  platform: Platform;
  /** What persists on this device (`localStorage` in the app): e.g. the studio's autosave. */
  storage: KeyValueStorage;
  /** The app's texts, in the store's language. */
  i18n: I18n;
  /** Resolves once the texts of the stored language are loaded. */
  ready: Promise<void>;
}

/** Options of {@link createServices}; tests pass their own storage and navigation. */
export interface ServicesOptions {
  apiBase: string;
  /** The `fetch` for API calls; default the browser's. */
  fetch?: typeof globalThis.fetch;
  /** Where the user store persists: `localStorage` in the app. */
  storage: KeyValueStorage;
  /** What lives only as long as the tab: `sessionStorage` in the app. */
  tabStorage: KeyValueStorage;
  navigate: (path: string) => void;
  reload: () => void;
  /** Leaves the app (the Discord authorize page); default the browser's. */
  redirect?: (url: string) => void;
  /** The browser's languages, most wanted first; default `navigator.languages`. */
  browserLanguages?: readonly string[];
  /** The app path now; default the hash's (a memory router passes its own). */
  currentPath?: () => string;
}

/** Wires the api-client, the user store, the sign-in popup and the notifications together. */
export function createServices(options: ServicesOptions): Services {
  // Read before the store is made (it saves itself from then on).
  const firstVisit = options.storage.getItem(USER_STORE_KEY) === null;
  const notices = createNoticeStore();
  const i18n = createI18n();
  const platform: Platform = {
    reload: options.reload,
    navigate: options.navigate,
    redirect: options.redirect ?? ((url) => window.location.assign(url)),
    currentPath: options.currentPath ?? (() => window.location.hash.slice(1) || '/'),
    notify: ({ tone, message }) => notices.trigger.added({ tone, message }),
    logError: (message, error) => console.error(`[mates] ${message}`, error),
  };
  // The client, the popup and the store call each other back; each is made before the others exist.
  const late: { store?: UserStore } = {};
  const discordStates = createDiscordStates(options.tabStorage);
  const store = () => late.store!;
  const client = createApiClient({
    baseUrl: options.apiBase,
    fetch: options.fetch,
    getToken: () => store().getSnapshot().context.userInfo.token,
    getLanguage: () => store().getSnapshot().context.userInfo.language,
    onSessionExpired: () => store().trigger.sessionExpired(),
    onNotice: (message) => notices.trigger.added({ tone: 'negative', message }),
  });
  const popup = createSignInPopup(
    {
      client,
      platform,
      storeUserInfo: (userInfo) => store().trigger.userInfoChanged({ userInfo }),
      storeRegistration: (email, verifyTicket) =>
        store().trigger.registered({ email, verifyTicket }),
      newDiscordState: discordStates.issue,
    },
    (error) => {
      platform.logError('The sign-in popup could not load', error);
      notices.trigger.added({ tone: 'negative', message: i18n.t('common.somethingWrong') });
    },
  );
  late.store = createUserStore({
    storage: options.storage,
    client,
    platform,
    openSignIn: () => popup.open(AUTH_MODE.signIn),
    // Unsent messages and unsaved mates are the person's own: they leave the device with them.
    onSignedOut: () => forgetDeviceWork(options.storage),
  });
  const queries = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A network failure may pass; the server's own answer (an error envelope) will not.
        retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
      },
    },
  });
  // What the server lists depends on who is asking and on their mature-content choice: when
  // either changes, every cached answer is out of date. A new person starts from nothing (no
  // glimpse of the last one's chats); a changed choice refetches what is on screen.
  const viewer = store().select((context) => context.userInfo.uuid ?? null);
  // What another account left unsent here (its session expired rather than signed out) is
  // forgotten before the person signed in now sees a screen: at start and at every sign-in.
  keepDeviceWorkFor(options.storage, viewer.get());
  viewer.subscribe((userId) => keepDeviceWorkFor(options.storage, userId));
  // Balances come from the server for whoever is signed in: at start with a saved session, and
  // after every sign-in (e-mail, Google, Discord), so the header never says "0 chats" until
  // /profile is visited.
  const refreshBenefits = () => {
    if (!viewer.get()) return;
    client.user.benefits().then(
      (benefits) => store().trigger.benefitsChanged({ benefits }),
      () => undefined,
    );
  };
  refreshBenefits();
  viewer.subscribe(() => {
    void queries.resetQueries();
    refreshBenefits();
  });
  const mature = store().select((context) => context.nfsw);
  mature.subscribe(() => void queries.invalidateQueries());
  // A first visit speaks the browser's language when the app has it; later visits, the stored one.
  if (firstVisit) {
    const wanted = firstSupported(
      options.browserLanguages ?? globalThis.navigator?.languages ?? [],
    );
    if (wanted && wanted !== store().getSnapshot().context.userInfo.language)
      store().trigger.languageChanged({ language: wanted });
  }
  // The texts follow the stored language: at start, and whenever it changes.
  const language = store().select((context) => context.userInfo.language);
  const ready = switchLanguage(i18n, language.get());
  language.subscribe((code) => void switchLanguage(i18n, code));
  return {
    client,
    store: store(),
    notices,
    queries,
    popup,
    discordStates,
    platform,
    storage: options.storage,
    i18n,
    ready,
  };
}

/** The first of `languages` (BCP 47 tags, e.g. `es-MX`) the app is written in, or `null`. */
function firstSupported(languages: readonly string[]): string | null {
  for (const tag of languages) {
    const code = tag.split('-')[0]!.toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return null;
}
