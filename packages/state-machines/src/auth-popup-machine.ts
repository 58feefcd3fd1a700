import {
  and,
  assertEvent,
  assign,
  emit,
  fromPromise,
  setup,
  type DoneActorEvent,
  type ErrorActorEvent,
} from 'xstate';
import { ApiError, type ApiClient, type RegisterResult, type UserInfo } from '@mates/api-client';
import {
  AUTH_MODE,
  DISCORD_SCOPE,
  NOTIFICATION_MS,
  RESET_PASSWORD_PATH,
  VERIFY_EMAIL_PATH,
  type AuthMode,
} from './constants';
import type { Platform } from './platform';

/** Where the Discord authorize redirect goes and comes back to. */
export interface DiscordAuthorizeConfig {
  /** The application's client id. */
  clientId: string;
  /** The absolute URL Discord sends the browser back to (`…/user/loginDiscord`). */
  redirectUri: string;
  /** Discord's authorize endpoint; default `https://discord.com/oauth2/authorize`. */
  authorizeUrl?: string;
}

/** What the auth popup needs from its surroundings. */
export interface AuthPopupInput {
  /** The API client (register, login, loginGG). */
  client: Pick<ApiClient, 'user'>;
  /** Reload, navigate, redirect, notify, log. */
  platform: Platform;
  /** Keeps the user info a sign-in returned (the user store's `userInfoChanged`). */
  storeUserInfo: (userInfo: UserInfo) => void;
  /**
   * Keeps the address that signs up (with an empty ticket, before register is called) and
   * then its ticket (the user store's `registered`).
   */
  storeRegistration: (email: string, verifyTicket: string) => void;
  /** Discord sign-in; absent when the server has none configured. */
  discord?: DiscordAuthorizeConfig;
  /**
   * Issues the OAuth `state` of one Discord sign-in and keeps it in this browser tab, where
   * the redirect back must bring the same one (so that nobody can sign a victim into their
   * own account with their code). Without it the authorize URL carries no state.
   */
  newDiscordState?: () => string;
}

/** Events the auth popup accepts. */
export type AuthPopupEvent =
  | { type: 'OPEN'; mode: AuthMode }
  | { type: 'CLOSE' }
  /** "Forgot your password?": closes the popup and opens the reset page (`/reset-password`). */
  | { type: 'FORGOT_PASSWORD' }
  | { type: 'SWITCH_MODE' }
  | { type: 'CHANGE_EMAIL'; value: string }
  | { type: 'CHANGE_PASSWORD'; value: string }
  | { type: 'SUBMIT' }
  | { type: 'GOOGLE'; credential: string }
  /** Redirects to Discord; `discord` is the configuration when the input had none (the app
   *  learns it from the server after the popup started). */
  | { type: 'DISCORD'; discord?: DiscordAuthorizeConfig };

/** Emitted when sign-up succeeded and the verify page was opened. */
export interface SignUpSuccessEmitted {
  /** Event name. */
  type: 'signUpSuccess';
  /** The address that signed up. */
  email: string;
}

/** What the server refused in a sign-up's fields, said under each (without the field's name). */
export interface AuthFieldErrors {
  /** Why the address was refused, e.g. "must be an e-mail address". */
  email?: string;
  /** Why the password was refused, e.g. "is too easy to guess (…)". */
  password?: string;
}

interface AuthPopupContext extends AuthPopupInput {
  mode: AuthMode;
  email: string;
  password: string;
  fieldErrors: AuthFieldErrors;
}

// The server refuses bad input with 4000 and "<field>: <why>", the field by its key in English
// and by the name people read in Spanish and French (apps/server/src/i18n, `fields`).
const BAD_INPUT_CODE = 4000;
const FIELD_NAMES: Record<keyof AuthFieldErrors, string[]> = {
  email: ['email', 'correo', 'adresse e-mail'],
  password: ['password', 'contraseña', 'mot de passe'],
};

/** A sign-up refusal about one of the popup's fields, as {@link AuthFieldErrors}; else null. */
export function signUpFieldErrors(error: unknown): AuthFieldErrors | null {
  if (!ApiError.isInstance(error) || error.code !== BAD_INPUT_CODE) return null;
  const match = /^(.+?) ?: (.+)$/s.exec(error.message);
  if (!match) return null;
  const name = match[1]!.toLowerCase();
  for (const field of ['email', 'password'] as const)
    if (FIELD_NAMES[field].includes(name)) return { [field]: match[2]! };
  return null;
}

interface CredentialsInput {
  client: Pick<ApiClient, 'user'>;
  email: string;
  password: string;
}

const DISCORD_AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';

/** The Discord authorize URL, asking for the scope "identify email", with `state` when given. */
export function discordAuthorizeUrl(config: DiscordAuthorizeConfig, state?: string): string {
  const query = [
    ['client_id', config.clientId],
    ['redirect_uri', config.redirectUri],
    ['response_type', 'code'],
    ['scope', DISCORD_SCOPE],
    ...(state ? [['state', state]] : []),
  ]
    .map(([key, value]) => `${key}=${encodeURIComponent(value!)}`)
    .join('&');
  return `${config.authorizeUrl ?? DISCORD_AUTHORIZE_URL}?${query}`;
}

// Email and Google sign-in end the same way: store the user info and reload, or only log.
const signedIn = {
  target: '#authPopup.closed',
  actions: [
    {
      type: 'storeUserInfo',
      params: ({ event }: { event: DoneActorEvent<UserInfo> }) => event.output,
    },
    'reload',
  ],
} as const;
const signInFailed = {
  target: 'editing',
  actions: {
    type: 'logSignInFailure',
    params: ({ event }: { event: ErrorActorEvent }) => event.error,
  },
} as const;

/**
 * The sign-up / sign-in popup (docs/product.md): closed, or open in mode 1
 * (sign-up) or mode 2 (sign-in). Submitting states carry the tag `loading`, which the
 * "Please wait..." overlay shows.
 */
export const authPopupMachine = setup({
  types: {
    context: {} as AuthPopupContext,
    input: {} as AuthPopupInput,
    events: {} as AuthPopupEvent,
    emitted: {} as SignUpSuccessEmitted,
  },
  actors: {
    register: fromPromise<RegisterResult, CredentialsInput>(({ input, signal }) =>
      input.client.user.register({ email: input.email, password: input.password }, { signal }),
    ),
    login: fromPromise<UserInfo, CredentialsInput>(({ input, signal }) =>
      input.client.user.login({ email: input.email, password: input.password }, { signal }),
    ),
    loginGoogle: fromPromise<UserInfo, { client: Pick<ApiClient, 'user'>; credential: string }>(
      ({ input, signal }) =>
        input.client.user.loginGG({ credential: input.credential }, { signal }),
    ),
  },
  guards: {
    isFieldRefusal: (_, error: unknown) => signUpFieldErrors(error) !== null,
    isFilled: ({ context }) => context.email !== '' && context.password !== '',
    isSignUp: ({ context }) => context.mode === AUTH_MODE.signUp,
  },
  actions: {
    openInMode: assign(({ event }) => {
      assertEvent(event, 'OPEN');
      return { mode: event.mode, password: '' };
    }),
    switchMode: assign({
      mode: ({ context }) =>
        context.mode === AUTH_MODE.signUp ? AUTH_MODE.signIn : AUTH_MODE.signUp,
    }),
    setEmail: assign({
      email: ({ event }) => (assertEvent(event, 'CHANGE_EMAIL'), event.value),
    }),
    setPassword: assign({
      password: ({ event }) => (assertEvent(event, 'CHANGE_PASSWORD'), event.value),
    }),
    forgetPassword: assign({ password: '', fieldErrors: {} }),
    keepFieldErrors: assign((_, error: unknown) => ({
      fieldErrors: signUpFieldErrors(error) ?? {},
    })),
    forgetFieldErrors: assign({ fieldErrors: {} }),
    goHome: ({ context }) => context.platform.navigate('/'),
    goToReset: ({ context }) => context.platform.navigate(RESET_PASSWORD_PATH),
    reload: ({ context }) => context.platform.reload(),
    storeUserInfo: ({ context }, userInfo: UserInfo) => context.storeUserInfo(userInfo),
    storeRegisterEmail: ({ context }) => context.storeRegistration(context.email, ''),
    storeRegistration: ({ context }, result: RegisterResult) =>
      context.storeRegistration(context.email, result.verifyTicket),
    goToVerifyPage: ({ context }) =>
      context.platform.navigate(
        `${VERIFY_EMAIL_PATH}?redirect_url=${encodeURIComponent(context.platform.currentPath())}`,
      ),
    emitSignUpSuccess: emit(({ context }) => ({
      type: 'signUpSuccess' as const,
      email: context.email,
    })),
    notifySignUpFailure: ({ context }, error: unknown) =>
      context.platform.notify({
        tone: 'negative',
        message: (error instanceof Error && error.message) || 'something error',
        durationMs: NOTIFICATION_MS,
      }),
    logSignInFailure: ({ context }, error: unknown) =>
      context.platform.logError('sign-in failed', error),
    redirectToDiscord: ({ context, event }) => {
      const config = (event.type === 'DISCORD' && event.discord) || context.discord;
      if (!config) {
        context.platform.logError('Discord sign-in is not configured', undefined);
        return;
      }
      context.platform.redirect(discordAuthorizeUrl(config, context.newDiscordState?.()));
    },
  },
}).createMachine({
  id: 'authPopup',
  context: ({ input }) => ({
    ...input,
    mode: AUTH_MODE.signIn,
    email: '',
    password: '',
    fieldErrors: {},
  }),
  initial: 'closed',
  states: {
    closed: {
      entry: 'forgetPassword',
      on: { OPEN: { target: 'open', actions: 'openInMode' } },
    },
    open: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            CHANGE_EMAIL: { actions: ['setEmail', 'forgetFieldErrors'] },
            CHANGE_PASSWORD: { actions: ['setPassword', 'forgetFieldErrors'] },
            SWITCH_MODE: { actions: ['switchMode', 'forgetFieldErrors'] },
            SUBMIT: [
              { guard: and(['isFilled', 'isSignUp']), target: 'signingUp' },
              { guard: 'isFilled', target: 'signingIn' },
            ],
            GOOGLE: 'signingInWithGoogle',
            DISCORD: { actions: 'redirectToDiscord' },
            CLOSE: { target: '#authPopup.closed', actions: 'goHome' },
            FORGOT_PASSWORD: { target: '#authPopup.closed', actions: 'goToReset' },
            OPEN: { actions: 'openInMode' },
          },
        },
        signingUp: {
          tags: 'loading',
          // docs/product.md, transitions: sign-up stores the email first, then calls register.
          entry: ['storeRegisterEmail', 'forgetFieldErrors'],
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ context }) => context,
            onDone: {
              target: '#authPopup.closed',
              actions: [
                {
                  type: 'storeRegistration',
                  params: ({ event }: { event: DoneActorEvent<RegisterResult> }) => event.output,
                },
                'goToVerifyPage',
                'emitSignUpSuccess',
              ],
            },
            // A refusal of what was typed (a password too easy to guess) is said under its
            // field; any other failure is the notification of docs/product.md.
            onError: [
              {
                guard: {
                  type: 'isFieldRefusal',
                  params: ({ event }: { event: ErrorActorEvent }) => event.error,
                },
                target: 'editing',
                actions: {
                  type: 'keepFieldErrors',
                  params: ({ event }: { event: ErrorActorEvent }) => event.error,
                },
              },
              {
                target: 'editing',
                actions: {
                  type: 'notifySignUpFailure',
                  params: ({ event }: { event: ErrorActorEvent }) => event.error,
                },
              },
            ],
          },
        },
        signingIn: {
          tags: 'loading',
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ context }) => context,
            onDone: signedIn,
            onError: signInFailed,
          },
        },
        signingInWithGoogle: {
          tags: 'loading',
          invoke: {
            id: 'loginGoogle',
            src: 'loginGoogle',
            input: ({ context, event }) => {
              assertEvent(event, 'GOOGLE');
              return { client: context.client, credential: event.credential };
            },
            onDone: signedIn,
            onError: signInFailed,
          },
        },
      },
    },
  },
});
