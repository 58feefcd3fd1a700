import type { Gender, UserInfo } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { fromJson, toBool } from '../db/dialect';

/** The API's user info for a user row and the session token in use. */
export function toUserInfo(user: UserTable, token: string): UserInfo {
  return {
    uuid: user.id,
    token,
    language: user.language,
    email: user.email,
    nickname: user.nickname,
    avatar: user.avatar,
    nfsw: toBool(user.nfsw),
    tags: fromJson<string[]>(user.tags, []),
    gender: (user.gender as Gender | null) ?? null,
    createdAt: user.created_at,
    isAdmin: false, // TODO(#14 moderation): from ADMIN_EMAILS
  };
}
