import { afterEach, describe, expect, it } from 'vitest';
import { readDraft, writeDraft } from '../lib/drafts';
import {
  AUTOSAVED_MATES_KEY,
  forgetDeviceWork,
  keepDeviceWorkFor,
  WORK_OWNER_KEY,
} from '../lib/device-work';
import { createServices } from '../lib/services';
import { readAutosave, writeAutosave, type StudioSnapshot } from '../features/generate/autosave';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const work: StudioSnapshot = {
  idea: { idea: 'A lighthouse keeper who collects storms', gender: null, tags: [], nsfw: false },
  draft: null,
  portrait: null,
  mateId: null,
} as unknown as StudioSnapshot;

/** Someone's unsent work: a chat draft, a new mate and an edit of a saved one. */
function leaveWork() {
  writeDraft(localStorage, 'room-a', { text: 'Half a thought', sending: null });
  writeAutosave(localStorage, null, work);
  writeAutosave(localStorage, 'mate-7', { ...work, mateId: 'mate-7' });
}

function workLeft() {
  return {
    draft: readDraft(localStorage, 'room-a').text,
    newMate: readAutosave(localStorage, null)?.idea.idea ?? null,
    savedMate: readAutosave(localStorage, 'mate-7')?.idea.idea ?? null,
  };
}

const none = { draft: '', newMate: null, savedMate: null };
const all = {
  draft: 'Half a thought',
  newMate: 'A lighthouse keeper who collects storms',
  savedMate: 'A lighthouse keeper who collects storms',
};

/** A tab of the app, on this browser's storage; nothing answers its calls (offline). */
const services = () =>
  createServices({
    apiBase: 'http://127.0.0.1:9/api',
    // Nothing answers: the benefits and logout calls fail, as offline.
    fetch: async () => {
      throw new TypeError('Failed to fetch');
    },
    storage: localStorage,
    tabStorage: sessionStorage,
    navigate: () => {},
    reload: () => {},
    browserLanguages: ['en'],
    currentPath: () => '/',
  });

describe('work left on this device', () => {
  it('is forgotten whole: the drafts and every mate’s unsaved studio work', () => {
    leaveWork();
    expect(JSON.parse(localStorage.getItem(AUTOSAVED_MATES_KEY)!)).toEqual(['mate-7']);
    forgetDeviceWork(localStorage);
    expect(workLeft()).toEqual(none);
  });

  it('is kept for its own person, and forgotten before another account’s', () => {
    keepDeviceWorkFor(localStorage, 'user-a');
    leaveWork();
    // A's session expired (nobody signed in), then A came back.
    keepDeviceWorkFor(localStorage, null);
    keepDeviceWorkFor(localStorage, 'user-a');
    expect(workLeft()).toEqual(all);
    // Someone else signs in on the same browser.
    keepDeviceWorkFor(localStorage, 'user-b');
    expect(workLeft()).toEqual(none);
    expect(localStorage.getItem(WORK_OWNER_KEY)).toBe('user-b');
  });

  it('written before its owner was noted, is the person’s signed in now', () => {
    leaveWork();
    keepDeviceWorkFor(localStorage, 'user-a');
    expect(workLeft()).toEqual(all);
  });

  it('never throws where storage refuses writes', () => {
    const full = {
      getItem: (key: string) => (key === WORK_OWNER_KEY ? 'user-a' : null),
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => forgetDeviceWork(full)).not.toThrow();
    expect(() => keepDeviceWorkFor(full, 'user-b')).not.toThrow();
  });

  it('goes with whoever signs out, and is not shown to the next account after an expiry', async () => {
    const signIn = (uuid: string) =>
      first.store.trigger.userInfoChanged({
        userInfo: { uuid, token: `token-${uuid}`, language: 'en' } as never,
      });
    const first = services();
    signIn('user-a');
    leaveWork();
    // A's session expires: the work stays for A.
    first.store.trigger.sessionExpired();
    expect(workLeft()).toEqual(all);
    // B signs in on the same browser: none of A's work is there to be shown.
    signIn('user-b');
    expect(workLeft()).toEqual(none);
    // B's own, then B signs out.
    leaveWork();
    first.store.trigger.logout();
    await expect.poll(() => workLeft()).toEqual(none);
    // B signs in again and leaves work; a page opened later, on B's saved session, keeps it.
    signIn('user-b');
    leaveWork();
    expect(services().store.getSnapshot().context.userInfo.uuid).toBe('user-b');
    expect(workLeft()).toEqual(all);
    // Work noted as another account's (A's tab wrote it last) is gone before a screen is drawn.
    localStorage.setItem(WORK_OWNER_KEY, 'user-a');
    services();
    expect(workLeft()).toEqual(none);
  });

  // Found by an outside review: A signed out in one tab, typed on in another still showing A's
  // chat (its store does not follow the sign-out), and B, signing in, found A's words.
  it('typed in a second tab after its person signed out in the first is not kept for the next', async () => {
    const tab = () => services();
    const first = tab();
    const signInTo = (services: ReturnType<typeof tab>, uuid: string) =>
      services.store.trigger.userInfoChanged({
        userInfo: { uuid, token: `token-${uuid}`, language: 'en' } as never,
      });
    signInTo(first, 'user-a');
    expect(tab().store.getSnapshot().context.userInfo.uuid).toBe('user-a');
    first.store.trigger.logout();
    await expect.poll(() => first.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    writeDraft(localStorage, 'room-a', { text: 'A private thought of A', sending: null });
    signInTo(first, 'user-b');
    expect(readDraft(localStorage, 'room-a').text).toBe('');
  });
});
