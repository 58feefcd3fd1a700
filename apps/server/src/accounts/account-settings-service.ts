import type { Gender, UserInfo } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { invalid, invalidField } from '../domain/errors';
import { tagKeys } from '../catalog/tag-repository';
import type { AccountDeps } from './account-deps';
import { isOldDefault } from './nicknames';
import { consume } from './rate-limits';
import { forgetUserSessions } from './session-cache';
import { toUserInfo } from './user-info';
import { updateUserSettings, userById, type UserSettings } from './user-repository';

/**
 * Writes what a person changed on their account, then forgets their cached sessions on every
 * server (a cached session holds the user's row).
 */
async function saveSettings(
  deps: Pick<AccountDeps, 'db'>,
  userId: string,
  settings: UserSettings,
): Promise<void> {
  await updateUserSettings(deps.db, userId, settings, now());
  await forgetUserSessions(deps.db, userId);
}

/** Sets the language the person reads and writes in (kept for their prompts and mails). */
export function setLanguage(
  deps: Pick<AccountDeps, 'db'>,
  user: UserTable,
  language: string,
): Promise<void> {
  return saveSettings(deps, user.id, { language });
}

/**
 * Sets the tags a person likes (each one a known tag, 4000 otherwise), and when given their
 * gender and whether they see mature content; answers their user info as it is now.
 */
export async function setTags(
  deps: Pick<AccountDeps, 'db' | 'config'>,
  user: UserTable,
  token: string,
  input: { tags: string[]; gender?: Gender | null | undefined; nfsw?: boolean | undefined },
): Promise<UserInfo> {
  const known = input.tags.length ? await tagKeys(deps.db) : [];
  const unknown = input.tags.find((tag) => !known.includes(tag));
  if (unknown !== undefined) throw invalid('notices.mates.unknownTag', { tag: unknown });
  await saveSettings(deps, user.id, {
    tags: toJson([...new Set(input.tags)]),
    ...(input.gender !== undefined ? { gender: input.gender } : {}),
    ...(input.nfsw !== undefined ? { nfsw: input.nfsw } : {}),
  });
  const updated = await userById(deps.db, user.id);
  if (!updated) throw new Error(`user ${user.id} is gone`);
  return toUserInfo(updated, token, deps.config.adminEmails);
}

/**
 * Sets the name shown on the person's mates, reviews and reports, and the one mates call them
 * (never the start of their address, which accounts were once given); answers their user
 * info. The same name again changes nothing, and makes no server list its mates again; a few
 * changes an hour are allowed.
 */
export async function setNickname(
  deps: Pick<AccountDeps, 'db' | 'config' | 'limits' | 'greetings'>,
  user: UserTable,
  token: string,
  nickname: string,
): Promise<UserInfo> {
  if (isOldDefault(nickname, user.email)) throw invalidField('nickname', 'fieldErrors.oldDefault');
  const info = toUserInfo({ ...user, nickname }, token, deps.config.adminEmails);
  if (nickname === user.nickname) return info;
  await consume(deps.limits.changeNickname, user.id);
  // A chat they play as themself and have not spoken in yet greets them by the new name.
  const readdress = await deps.greetings?.(user.id, null);
  await saveSettings(deps, user.id, { nickname });
  await readdress?.(user.nickname, nickname);
  return info;
}
