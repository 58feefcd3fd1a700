import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** A random 256-bit token, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token: its SHA-256, so a leaked table grants nothing. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Hashes a password with argon2id (the library's default algorithm). */
export const hashPassword = (password: string): Promise<string> => hash(password);

// A hash of nothing anyone can type, made once on first use (a cache): unknown addresses and
// accounts without a password are checked against it, so that they cost the same time as a
// wrong password and the answer's timing does not tell which addresses have accounts.
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`; a missing or malformed hash is no match, after the
 * same work as a real check.
 */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  try {
    if (passwordHash) return await verify(passwordHash, password);
    dummyHash ??= hash(randomToken());
    await verify(await dummyHash, password);
    return false;
  } catch {
    return false;
  }
}
