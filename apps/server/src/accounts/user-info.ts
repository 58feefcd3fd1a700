import type { Gender, UserInfo } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { fromJson, toBool } from '../db/dialect';

/**
 * Whether `user` moderates reports: a verified account whose address is in the server's
 * `ADMIN_EMAILS` (compared without case). An address someone signed up with but never
 * confirmed grants nothing.
 */
export function isAdmin(user: UserTable | null, adminEmails: ReadonlySet<string>): boolean {
  return Boolean(
    user && user.email_verified_at && adminEmails.has(user.email.trim().toLowerCase()),
  );
}

/**
 * The API's user info for a user row and the session token in use; `adminEmails` is the
 * server's `ADMIN_EMAILS`.
 */
export function toUserInfo(
  user: UserTable,
  token: string,
  adminEmails: ReadonlySet<string>,
): UserInfo {
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
    isAdmin: isAdmin(user, adminEmails),
    hasPassword: user.password_hash !== null,
  };
}
