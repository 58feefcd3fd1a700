import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError, type RegisterResult, type UserInfo } from '@mates/api-client';
import { authPopupMachine, discordAuthorizeUrl } from './auth-popup-machine';
import { AUTH_MODE } from './constants';
import { createFakePlatform, flush } from './platform.test-helper';

const USER = { uuid: 'u1', token: 't', language: 'en' } as UserInfo;

function setup(
  impl: {
    register?: () => Promise<RegisterResult>;
    login?: () => Promise<UserInfo>;
    loginGoogle?: () => Promise<UserInfo>;
  } = {},
  discord?: { clientId: string; redirectUri: string },
) {
  const calls = { register: vi.fn(), login: vi.fn(), loginGoogle: vi.fn() };
  const machine = authPopupMachine.provide({
    actors: {
      register: fromPromise(async ({ input }) => {
        calls.register(input.email, input.password);
        return (impl.register ?? (async () => ({ verifyTicket: 'tk-1' })))();
      }),
      login: fromPromise(async ({ input }) => {
        calls.login(input.email, input.password);
        return (impl.login ?? (async () => USER))();
      }),
      loginGoogle: fromPromise(async ({ input }) => {
        calls.loginGoogle(input.credential);
        return (impl.loginGoogle ?? (async () => USER))();
      }),
    },
  });
  const platform = createFakePlatform();
  const storeUserInfo = vi.fn();
  const storeRegistration = vi.fn();
  const actor = createActor(machine, {
    input: { client: {} as never, platform, storeUserInfo, storeRegistration, discord },
  }).start();
  const fill = (email: string, password: string) => {
    actor.send({ type: 'CHANGE_EMAIL', value: email });
    actor.send({ type: 'CHANGE_PASSWORD', value: password });
  };
  return { actor, calls, platform, storeUserInfo, storeRegistration, fill };
}

describe('authPopupMachine', () => {
  it('starts closed and opens in the mode asked for', () => {
    const { actor } = setup();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(actor.getSnapshot().context.mode).toBe(1);
    actor.send({ type: 'SWITCH_MODE' });
    expect(actor.getSnapshot().context.mode).toBe(2);
    actor.send({ type: 'SWITCH_MODE' });
    expect(actor.getSnapshot().context.mode).toBe(1);
  });

  it.each([
    ['', ''],
    ['ada@example.com', ''],
    ['', 'secret'],
  ])('SUBMIT with email %j and password %j sends nothing', async (email, password) => {
    const { actor, calls, fill } = setup();
    for (const mode of [AUTH_MODE.signUp, AUTH_MODE.signIn]) {
      actor.send({ type: 'OPEN', mode });
      fill(email, password);
      actor.send({ type: 'SUBMIT' });
      await flush();
      expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
      expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    }
    expect(calls.register).not.toHaveBeenCalled();
    expect(calls.login).not.toHaveBeenCalled();
  });

  it('sign-up: loading, stores the email and ticket, opens the verify page, emits success', async () => {
    let finish!: (value: RegisterResult) => void;
    const { actor, calls, platform, storeRegistration, fill } = setup({
      register: () => new Promise((resolve) => (finish = resolve)),
    });
    const emitted = vi.fn();
    actor.on('signUpSuccess', emitted);
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    fill('new@example.com', 'hunter22');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(storeRegistration).toHaveBeenCalledWith('new@example.com', '');
    await flush();
    expect(calls.register).toHaveBeenCalledWith('new@example.com', 'hunter22');
    finish({ verifyTicket: 'tk-9' });
    await flush();
    expect(storeRegistration).toHaveBeenCalledWith('new@example.com', 'tk-9');
    expect(platform.navigate).toHaveBeenCalledWith(
      '/verify-email-address?redirect_url=%2Fdetail%3FmateId%3Dm1',
    );
    expect(emitted).toHaveBeenCalledWith({ type: 'signUpSuccess', email: 'new@example.com' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('sign-up failure: negative notification for 3 s with the message, stays open', async () => {
    const { actor, platform, fill } = setup({
      register: async () => {
        throw new Error('This address is already registered.');
      },
    });
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    fill('a@b.c', 'pw');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(platform.notify).toHaveBeenCalledWith({
      tone: 'negative',
      message: 'This address is already registered.',
      durationMs: 3000,
    });
    expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
    expect(platform.navigate).not.toHaveBeenCalled();
  });

  it('sign-up refusing a field: the reason under that field, without its name, no notification', async () => {
    const EASY =
      'is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one';
    const badInput = (message: string) =>
      new ApiError(message, { code: 4000, method: 'POST', path: '/user/register', status: 200 });
    const refusals = [
      [`password: ${EASY}`, { password: EASY }],
      [
        'contraseña: es demasiado fácil de adivinar',
        { password: 'es demasiado fácil de adivinar' },
      ],
      ['adresse e-mail : doit être une adresse e-mail', { email: 'doit être une adresse e-mail' }],
    ] as const;
    for (const [message, fieldErrors] of refusals) {
      const { actor, platform, fill } = setup({
        register: async () => {
          throw badInput(message);
        },
      });
      actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
      fill('a@b.c', 'password123');
      actor.send({ type: 'SUBMIT' });
      await flush();
      expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
      expect(actor.getSnapshot().context.fieldErrors).toEqual(fieldErrors);
      expect(platform.notify).not.toHaveBeenCalled();
      // Typing again takes the reason away; the password stays for the person to change.
      expect(actor.getSnapshot().context.password).toBe('password123');
      actor.send({ type: 'CHANGE_PASSWORD', value: 'a few uncommon words' });
      expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    }
    // A 4000 about anything else is still the notification.
    const other = setup({
      register: async () => {
        throw badInput('language: must be a language tag');
      },
    });
    other.actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    other.fill('a@b.c', 'pw');
    other.actor.send({ type: 'SUBMIT' });
    await flush();
    expect(other.platform.notify).toHaveBeenCalled();
  });

  it('sign-up failure without a message: "something error"', async () => {
    const { actor, platform, fill } = setup({
      register: async () => Promise.reject({ not: 'an error' }),
    });
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    fill('a@b.c', 'pw');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(platform.notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'something error' }),
    );
  });

  it('sign-in success stores the user info and reloads', async () => {
    const { actor, calls, platform, storeUserInfo, fill } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    fill('ada@example.com', 'secret');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await flush();
    expect(calls.login).toHaveBeenCalledWith('ada@example.com', 'secret');
    expect(storeUserInfo).toHaveBeenCalledWith(USER);
    expect(platform.reload).toHaveBeenCalledOnce();
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('sign-in failure is only logged: no notification, popup stays open', async () => {
    const error = new Error('Wrong e-mail or password.');
    const { actor, platform, storeUserInfo, fill } = setup({ login: () => Promise.reject(error) });
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    fill('ada@example.com', 'nope');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(platform.logError).toHaveBeenCalledWith('sign-in failed', error);
    expect(platform.notify).not.toHaveBeenCalled();
    expect(storeUserInfo).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);
  });

  it('Google: sends the credential, stores and reloads; failure only logged', async () => {
    const ok = setup();
    ok.actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    ok.actor.send({ type: 'GOOGLE', credential: 'jwt-1' });
    await flush();
    expect(ok.calls.loginGoogle).toHaveBeenCalledWith('jwt-1');
    expect(ok.storeUserInfo).toHaveBeenCalledWith(USER);
    expect(ok.platform.reload).toHaveBeenCalledOnce();

    const bad = setup({ loginGoogle: () => Promise.reject(new Error('bad token')) });
    bad.actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    bad.actor.send({ type: 'GOOGLE', credential: 'jwt-2' });
    await flush();
    expect(bad.platform.logError).toHaveBeenCalled();
    expect(bad.platform.notify).not.toHaveBeenCalled();
  });

  it('Discord: redirects to the authorize page with scope "identify email"', () => {
    const { actor, platform } = setup(
      {},
      {
        clientId: '123',
        redirectUri: 'http://localhost:3000/user/loginDiscord',
      },
    );
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    actor.send({ type: 'DISCORD' });
    const url = new URL(platform.redirect.mock.calls[0]![0] as string);
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('scope')).toBe('identify email');
    expect(url.searchParams.get('client_id')).toBe('123');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/user/loginDiscord');
    expect(discordAuthorizeUrl({ clientId: 'a', redirectUri: 'b' })).toContain(
      'scope=identify%20email',
    );
  });

  it('Discord: asks for a fresh OAuth state each time and sends it along (CSRF)', () => {
    const states = ['state-1', 'state-2'];
    const newDiscordState = vi.fn(() => states.shift()!);
    const platform = createFakePlatform();
    const actor = createActor(authPopupMachine, {
      input: {
        client: {} as never,
        platform,
        storeUserInfo: vi.fn(),
        storeRegistration: vi.fn(),
        discord: { clientId: '123', redirectUri: 'http://mates.test/user/loginDiscord' },
        newDiscordState,
      },
    }).start();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    actor.send({ type: 'DISCORD' });
    actor.send({ type: 'DISCORD' });
    const sent = platform.redirect.mock.calls.map(([url]) =>
      new URL(url as string).searchParams.get('state'),
    );
    expect(sent).toEqual(['state-1', 'state-2']);
    expect(discordAuthorizeUrl({ clientId: 'a', redirectUri: 'b' }, 'x y')).toContain(
      'state=x%20y',
    );
  });

  it('Discord takes its configuration from the event when the input had none', () => {
    const { actor, platform } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    actor.send({
      type: 'DISCORD',
      discord: { clientId: '77', redirectUri: 'http://mates.test/user/loginDiscord' },
    });
    const url = new URL(platform.redirect.mock.calls[0]![0] as string);
    expect(url.searchParams.get('client_id')).toBe('77');
    expect(url.searchParams.get('scope')).toBe('identify email');
    expect(url.searchParams.get('redirect_uri')).toBe('http://mates.test/user/loginDiscord');
  });

  it('Discord without configuration logs and stays put', () => {
    const { actor, platform } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    actor.send({ type: 'DISCORD' });
    expect(platform.redirect).not.toHaveBeenCalled();
    expect(platform.logError).toHaveBeenCalled();
  });

  it('CLOSE returns to "/" and forgets the password', () => {
    const { actor, platform, fill } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    fill('ada@example.com', 'secret');
    actor.send({ type: 'CLOSE' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(platform.navigate).toHaveBeenCalledWith('/');
    expect(actor.getSnapshot().context.password).toBe('');
    expect(actor.getSnapshot().context.email).toBe('ada@example.com');
  });

  it('FORGOT_PASSWORD closes the popup for the reset page', () => {
    const { actor, platform, fill } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    fill('ada@example.com', 'secret');
    actor.send({ type: 'FORGOT_PASSWORD' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(platform.navigate).toHaveBeenCalledWith('/reset-password');
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('the session-expired path opens mode 2 over an open popup', () => {
    const { actor } = setup();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signUp });
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    expect(actor.getSnapshot().context.mode).toBe(2);
  });

  it('the default actors call the api-client', async () => {
    const user = {
      register: vi.fn(async () => ({ verifyTicket: 'tk' })),
      login: vi.fn(async () => USER),
      loginGG: vi.fn(async () => USER),
    };
    const platform = createFakePlatform();
    const actor = createActor(authPopupMachine, {
      input: {
        client: { user } as never,
        platform,
        storeUserInfo: vi.fn(),
        storeRegistration: vi.fn(),
      },
    }).start();
    actor.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
    actor.send({ type: 'CHANGE_EMAIL', value: 'a@b.c' });
    actor.send({ type: 'CHANGE_PASSWORD', value: 'pw' });
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(user.login).toHaveBeenCalledWith(
      { email: 'a@b.c', password: 'pw' },
      { signal: expect.any(AbortSignal) },
    );
  });
});
