import { createStore } from '@xstate/store';
import type { ApiClient, Gender, UserBenefits, UserInfo } from '@mates/api-client';
import { DEFAULT_BENEFITS, DEFAULT_LANGUAGE } from './constants';
import type { Platform } from './platform';

/** User info as stored: what login returned, or only a language when signed out. */
export type StoredUserInfo = Partial<Omit<UserInfo, 'language'>> & { language: string };

/** Everything the user store holds (docs/product.md, entities). */
export interface UserState {
  /** Persisted user info; logged in means `userInfo.uuid` is present. */
  userInfo: StoredUserInfo;
  /** The address that signed up and is waiting for verification. */
  registerEmail: string;
  /** The ticket register gave for `registerEmail`; verify-status needs it to sign in. */
  verifyTicket: string;
  /** Whether not-safe-for-work mates may be shown (the contract spells it "nfsw"). */
  nfsw: boolean;
  /** The gender filter of the discover page, or `null` for all. */
  selectGender: Gender | null;
  /** Tags chosen on the discover page. */
  selectedTags: string[];
  /** Tags added beside the chosen ones. */
  extraTags: string[];
  /** Chats and gold coins left. */
  userBenefits: UserBenefits;
  /** Whether each new mate reply is played aloud once complete (a preference of this browser). */
  speakReplies: boolean;
  /**
   * Whether the person said they are an adult (asked once, before mature mates are first
   * turned on, and remembered on this browser).
   */
  adultConfirmed: boolean;
  /** The colour theme: the system's (default), or always light or dark (this browser's choice). */
  theme: ThemeChoice;
}

/** A colour theme choice: follow the system, or always light or dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** The part of Web Storage the store needs; `localStorage` fits. */
export interface KeyValueStorage {
  /** Reads a value, or `null`. */
  getItem: (key: string) => string | null;
  /** Writes a value. */
  setItem: (key: string, value: string) => void;
}

/** Options of {@link createUserStore}. */
export interface UserStoreOptions {
  /** Where the state persists (`localStorage` in the browser). */
  storage: KeyValueStorage;
  /** The key it persists under; default {@link USER_STORE_KEY}. */
  storageKey?: string;
  /** The API client, for the server calls of logout and language change. */
  client?: Pick<ApiClient, 'user'>;
  /** Reload, navigate and error logging. */
  platform?: Partial<Pick<Platform, 'reload' | 'navigate' | 'logError'>>;
  /** Opens the sign-in popup in mode 2 when the session expired. */
  openSignIn?: () => void;
  /**
   * Called once the person has signed out on this device (log out, account deleted, password
   * reset), not when a session expires (they sign in again and go on): what the device keeps
   * for them alone, such as unsent messages, goes with them.
   */
  onSignedOut?: () => void;
}

/** The storage key the user store persists under by default. */
export const USER_STORE_KEY = 'mates.user';

/** The state of a visitor who never signed in. */
export function initialUserState(): UserState {
  return {
    userInfo: { language: DEFAULT_LANGUAGE },
    registerEmail: '',
    verifyTicket: '',
    nfsw: false,
    selectGender: null,
    selectedTags: [],
    extraTags: [],
    userBenefits: { ...DEFAULT_BENEFITS },
    speakReplies: false,
    adultConfirmed: false,
    theme: 'system',
  };
}

/** Whether the state is signed in: `userInfo.uuid` is present (docs/product.md, transitions). */
export function isLoggedIn(state: Pick<UserState, 'userInfo'>): boolean {
  return Boolean(state.userInfo.uuid);
}

/**
 * Creates the user store (`@xstate/store`), restored from and persisted to `storage`.
 * Its events carry out the transitions of docs/product.md: login success, logout, language
 * change, tag toggle and session expiry, with their server calls, reloads and navigation.
 */
export function createUserStore(options: UserStoreOptions) {
  const {
    storage,
    storageKey = USER_STORE_KEY,
    client,
    platform = {},
    openSignIn,
    onSignedOut,
  } = options;
  const logError = platform.logError ?? (() => {});

  const store = createStore({
    context: restore(storage, storageKey, logError),
    on: {
      loginSucceeded: (context, event: { userInfo: UserInfo }, enq) => {
        enq.effect(() => platform.reload?.());
        return { ...context, userInfo: { ...event.userInfo } };
      },
      userInfoChanged: (context, event: { userInfo: UserInfo }) => ({
        ...context,
        userInfo: { ...event.userInfo },
        verifyTicket: '',
      }),
      registered: (context, event: { email: string; verifyTicket: string }) => ({
        ...context,
        registerEmail: event.email,
        verifyTicket: event.verifyTicket,
      }),
      logout: (context, _event: object, enq) => {
        enq.effect(async ({ send }) => {
          try {
            await client?.user.logout();
          } catch (error) {
            // The local session ends either way; the server's copy expires on its own.
            logError('logout failed', error);
          }
          send({ type: 'loggedOut' });
          platform.navigate?.('/');
        });
        return context;
      },
      loggedOut: (context, _event: object, enq) => {
        if (onSignedOut) enq.effect(onSignedOut);
        return {
          ...context,
          userInfo: { language: DEFAULT_LANGUAGE },
          userBenefits: { ...DEFAULT_BENEFITS },
          nfsw: false,
        };
      },
      languageChanged: (context, event: { language: string }, enq) => {
        if (isLoggedIn(context)) {
          enq.effect(async () => {
            try {
              await client?.user.updateLange({ language: event.language });
              platform.reload?.();
            } catch (error) {
              logError('language change failed', error);
            }
          });
        }
        return { ...context, userInfo: { ...context.userInfo, language: event.language } };
      },
      tagToggled: (context, event: { tag: string }) => ({
        ...context,
        selectedTags: context.selectedTags.includes(event.tag)
          ? context.selectedTags.filter((tag) => tag !== event.tag)
          : [...context.selectedTags, event.tag],
      }),
      sessionExpired: (context, _event: object, enq) => {
        enq.effect(() => openSignIn?.());
        // The language is the visitor's preference, not part of the expired session.
        return { ...context, userInfo: { language: context.userInfo.language } };
      },
      benefitsChanged: (context, event: { benefits: UserBenefits }) => ({
        ...context,
        userBenefits: { ...event.benefits },
      }),
      nfswChanged: (context, event: { nfsw: boolean }) => ({ ...context, nfsw: event.nfsw }),
      adultConfirmed: (context) => ({ ...context, adultConfirmed: true }),
      themeChanged: (context, event: { theme: ThemeChoice }) => ({
        ...context,
        theme: event.theme,
      }),
      speakRepliesChanged: (context, event: { speakReplies: boolean }) => ({
        ...context,
        speakReplies: event.speakReplies,
      }),
      genderSelected: (context, event: { gender: Gender | null }) => ({
        ...context,
        selectGender: event.gender,
      }),
      selectedTagsChanged: (context, event: { tags: string[] }) => ({
        ...context,
        selectedTags: [...event.tags],
      }),
      extraTagsChanged: (context, event: { tags: string[] }) => ({
        ...context,
        extraTags: [...event.tags],
      }),
    },
  });

  store.subscribe((snapshot) => {
    try {
      storage.setItem(storageKey, JSON.stringify(snapshot.context));
    } catch (error) {
      // Private browsing or a full quota: the session still works, it just won't survive a reload.
      logError('could not persist the user store', error);
    }
  });
  return store;
}

/** The store {@link createUserStore} returns. */
export type UserStore = ReturnType<typeof createUserStore>;

function restore(
  storage: KeyValueStorage,
  key: string,
  logError: (message: string, error: unknown) => void,
): UserState {
  const initial = initialUserState();
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch (error) {
    logError('could not read the user store', error);
    return initial;
  }
  if (raw === null) return initial;
  try {
    const saved = JSON.parse(raw) as Partial<UserState>;
    return {
      ...initial,
      ...saved,
      userInfo: { ...initial.userInfo, ...saved.userInfo },
      userBenefits: { ...initial.userBenefits, ...saved.userBenefits },
    };
  } catch (error) {
    logError('the saved user store was unreadable; starting fresh', error);
    return initial;
  }
}
