import { describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@mates/api-client';
import { createUserStore, initialUserState, isLoggedIn, USER_STORE_KEY } from './user-store';
import { createMemoryStorage } from './memory-storage.test-helper';

const USER: UserInfo = {
  uuid: 'u1',
  token: 't1',
  language: 'es',
  email: 'ada@example.com',
  nickname: 'Ada',
  avatar: null,
  nfsw: true,
  tags: [],
  gender: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  isAdmin: false,
  hasPassword: true,
};

function setup(saved?: object) {
  const { storage, data } = createMemoryStorage(
    saved ? { [USER_STORE_KEY]: JSON.stringify(saved) } : {},
  );
  const client = {
    user: {
      logout: vi.fn(async () => null),
      updateLange: vi.fn(async () => null),
    },
  };
  const platform = { reload: vi.fn(), navigate: vi.fn(), logError: vi.fn() };
  const openSignIn = vi.fn();
  const onSignedOut = vi.fn();
  const store = createUserStore({
    storage,
    client: client as never,
    platform,
    openSignIn,
    onSignedOut,
  });
  const context = () => store.getSnapshot().context;
  return { store, context, data, client, platform, openSignIn, onSignedOut };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createUserStore', () => {
  it('starts as docs/product.md says: language "en", 0 chats, 0 gold coins, signed out', () => {
    const { context } = setup();
    expect(context()).toEqual(initialUserState());
    expect(context().userInfo).toEqual({ language: 'en' });
    expect(context().userBenefits).toEqual({ chats: 0, goldCoins: 0, userId: null });
    expect(isLoggedIn(context())).toBe(false);
  });

  it('login success stores the user info and reloads', () => {
    const { store, context, platform } = setup();
    store.trigger.loginSucceeded({ userInfo: USER });
    expect(context().userInfo).toEqual(USER);
    expect(isLoggedIn(context())).toBe(true);
    expect(platform.reload).toHaveBeenCalledOnce();
  });

  it('persists under one key and restores from it', () => {
    const first = setup();
    first.store.trigger.loginSucceeded({ userInfo: USER });
    first.store.trigger.registered({ email: 'new@example.com', verifyTicket: 'tk' });
    const saved = JSON.parse(first.data.get(USER_STORE_KEY)!);
    expect(saved.userInfo.uuid).toBe('u1');
    const second = setup(saved);
    expect(second.context().userInfo).toEqual(USER);
    expect(second.context().registerEmail).toBe('new@example.com');
    expect(second.context().verifyTicket).toBe('tk');
  });

  it('follows the system theme until the person chooses one, and keeps the choice', () => {
    const first = setup();
    expect(first.context().theme).toBe('system');
    first.store.trigger.themeChanged({ theme: 'light' });
    expect(setup(JSON.parse(first.data.get(USER_STORE_KEY)!)).context().theme).toBe('light');
  });

  it('remembers, across reloads, that the person said they are an adult', () => {
    const first = setup();
    expect(first.context().adultConfirmed).toBe(false);
    first.store.trigger.adultConfirmed();
    expect(setup(JSON.parse(first.data.get(USER_STORE_KEY)!)).context().adultConfirmed).toBe(true);
    // A state saved before the question existed has not answered it.
    expect(setup({ nfsw: true }).context().adultConfirmed).toBe(false);
  });

  it('keeps "speak replies aloud" off at first, and across reloads once turned on', () => {
    const first = setup();
    expect(first.context().speakReplies).toBe(false);
    first.store.trigger.speakRepliesChanged({ speakReplies: true });
    const second = setup(JSON.parse(first.data.get(USER_STORE_KEY)!));
    expect(second.context().speakReplies).toBe(true);
    // A state saved before the preference existed starts with it off.
    expect(setup({ nfsw: true }).context().speakReplies).toBe(false);
  });

  it('starts fresh, and logs, when the saved state is unreadable', () => {
    const { storage } = createMemoryStorage({ [USER_STORE_KEY]: '{broken' });
    const logError = vi.fn();
    const store = createUserStore({ storage, platform: { logError } });
    expect(store.getSnapshot().context).toEqual(initialUserState());
    expect(logError).toHaveBeenCalledOnce();
  });

  it('logout calls the server, resets exactly the documented fields, and goes to "/"', async () => {
    const { store, context, client, platform } = setup();
    store.trigger.loginSucceeded({ userInfo: USER });
    store.trigger.benefitsChanged({ benefits: { chats: 5, goldCoins: 9, userId: 'u1' } });
    store.trigger.nfswChanged({ nfsw: true });
    store.trigger.speakRepliesChanged({ speakReplies: true });
    store.trigger.genderSelected({ gender: 'female' });
    store.trigger.tagToggled({ tag: 'fantasy' });
    store.trigger.extraTagsChanged({ tags: ['x'] });
    store.trigger.registered({ email: 'r@example.com', verifyTicket: 'tk' });
    const before = context();

    store.trigger.logout();
    await settle();

    expect(client.user.logout).toHaveBeenCalledOnce();
    expect(context()).toEqual({
      ...before,
      userInfo: { language: 'en' },
      userBenefits: { chats: 0, goldCoins: 0, userId: null },
      nfsw: false,
    });
    expect(platform.navigate).toHaveBeenCalledWith('/');
  });

  it('logout still ends the local session when the server call fails, and logs it', async () => {
    const { store, context, client, platform } = setup();
    client.user.logout.mockRejectedValueOnce(new Error('offline'));
    store.trigger.loginSucceeded({ userInfo: USER });
    store.trigger.logout();
    await settle();
    expect(isLoggedIn(context())).toBe(false);
    expect(platform.logError).toHaveBeenCalledWith('logout failed', expect.any(Error));
    expect(platform.navigate).toHaveBeenCalledWith('/');
  });

  it('lets the page forget what the device kept for the person once they sign out, not when a session expires', async () => {
    const { store, client, onSignedOut } = setup();
    store.trigger.loginSucceeded({ userInfo: USER });
    store.trigger.sessionExpired();
    expect(onSignedOut).not.toHaveBeenCalled();

    store.trigger.loginSucceeded({ userInfo: USER });
    client.user.logout.mockRejectedValueOnce(new Error('offline'));
    store.trigger.logout();
    // After the server's answer, failed or not, as the session ends.
    expect(onSignedOut).not.toHaveBeenCalled();
    await settle();
    expect(onSignedOut).toHaveBeenCalledOnce();

    // An account deleted, or a password reset, signs out without the server's logout.
    store.trigger.loginSucceeded({ userInfo: USER });
    store.trigger.loggedOut();
    expect(onSignedOut).toHaveBeenCalledTimes(2);
  });

  it('language change when signed out: stores it, no server call, no reload', async () => {
    const { store, context, client, platform } = setup();
    store.trigger.languageChanged({ language: 'es' });
    await settle();
    expect(context().userInfo.language).toBe('es');
    expect(client.user.updateLange).not.toHaveBeenCalled();
    expect(platform.reload).not.toHaveBeenCalled();
  });

  it('language change when signed in: stores it, calls the server, then reloads', async () => {
    const { store, context, client, platform } = setup();
    store.trigger.loginSucceeded({ userInfo: USER });
    platform.reload.mockClear();
    let serverDone = false;
    client.user.updateLange.mockImplementationOnce(async () => {
      expect(platform.reload).not.toHaveBeenCalled();
      serverDone = true;
      return null;
    });
    store.trigger.languageChanged({ language: 'fr' });
    expect(context().userInfo.language).toBe('fr');
    await settle();
    expect(client.user.updateLange).toHaveBeenCalledWith({ language: 'fr' });
    expect(serverDone).toBe(true);
    expect(platform.reload).toHaveBeenCalledOnce();
  });

  it('tag toggle adds an absent tag, then removes it', () => {
    const { store, context } = setup();
    store.trigger.tagToggled({ tag: 'fantasy' });
    store.trigger.tagToggled({ tag: 'romance' });
    expect(context().selectedTags).toEqual(['fantasy', 'romance']);
    store.trigger.tagToggled({ tag: 'fantasy' });
    expect(context().selectedTags).toEqual(['romance']);
  });

  it('session expired clears the user info and opens the sign-in popup', () => {
    const { store, context, openSignIn } = setup();
    store.trigger.loginSucceeded({ userInfo: USER });
    store.trigger.sessionExpired();
    expect(isLoggedIn(context())).toBe(false);
    expect(context().userInfo).toEqual({ language: 'es' });
    expect(openSignIn).toHaveBeenCalledOnce();
  });

  it('keeps working when storage refuses writes', () => {
    const logError = vi.fn();
    const store = createUserStore({
      storage: {
        getItem: () => null,
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      },
      platform: { logError },
    });
    store.trigger.nfswChanged({ nfsw: true });
    expect(store.getSnapshot().context.nfsw).toBe(true);
    expect(logError).toHaveBeenCalled();
  });
});
