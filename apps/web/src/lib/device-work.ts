import type { KeyValueStorage } from '@mates/state-machines';

/** The key this device keeps unsent messages under, one entry per room (see drafts.ts). */
export const DRAFTS_KEY = 'mates.drafts';

/** Forgets every room's unsent message. */
export function forgetDrafts(storage: KeyValueStorage): void {
  try {
    storage.setItem(DRAFTS_KEY, '');
  } catch {
    // Storage refusing writes kept nothing to forget.
  }
}

/** The key a mate's (or a new mate's) unsaved studio work is kept under. */
export const autosaveKey = (mateId: string | null) => `mates.studio.${mateId ?? 'new'}`;

/** Which saved mates have studio work kept here (a list of ids), so that it can all be forgotten. */
export const AUTOSAVED_MATES_KEY = 'mates.studio.kept';

/** The ids listed under {@link AUTOSAVED_MATES_KEY}. */
export function autosavedMates(storage: KeyValueStorage): string[] {
  try {
    const ids: unknown = JSON.parse(storage.getItem(AUTOSAVED_MATES_KEY) || '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Forgets every mate's unsaved studio work kept on this device. */
function forgetStudioWork(storage: KeyValueStorage): void {
  for (const mateId of [null, ...autosavedMates(storage)]) storage.setItem(autosaveKey(mateId), '');
  storage.setItem(AUTOSAVED_MATES_KEY, '');
}

/** The account whose unsent work (chat drafts, the studio's unsaved mates) this device keeps. */
export const WORK_OWNER_KEY = 'mates.workOwner';

/**
 * The owner after a sign-out: nobody's. What another tab still showing the account writes after
 * it (its store does not follow the sign-out) is then nobody's, and forgotten at the next sign-in.
 */
const SIGNED_OUT = '-';

/**
 * Forgets what a person left unsent on this device: every chat's draft and the studio's unsaved
 * work. Called when they sign out, and before someone else's work is kept here.
 */
export function forgetDeviceWork(storage: KeyValueStorage): void {
  forgetDrafts(storage);
  try {
    forgetStudioWork(storage);
    storage.setItem(WORK_OWNER_KEY, SIGNED_OUT);
  } catch {
    // Storage refusing writes kept nothing to forget.
  }
}

/**
 * Keeps this device's unsent work for `userId`, the person signed in now (`null`: nobody): work
 * left by another account is forgotten first. A session that expired does not sign out, so
 * what its person had typed is kept for them; the next to sign in here, if not them, never
 * sees it.
 */
export function keepDeviceWorkFor(storage: KeyValueStorage, userId: string | null): void {
  if (!userId) return;
  const owner = storage.getItem(WORK_OWNER_KEY);
  if (owner === userId) return;
  // Another account's, or nobody's since a sign-out. Work kept before this device wrote down an
  // owner at all (`null`) is the person's who is signed in now.
  if (owner !== null) forgetDeviceWork(storage);
  try {
    storage.setItem(WORK_OWNER_KEY, userId);
  } catch {
    // Nothing can be kept either.
  }
}
