import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** A random 256-bit token, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token: its SHA-256, so a leaked table grants nothing. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Hashes a password with argon2id (the library's default algorithm). */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** Whether `password` matches `passwordHash`; a malformed hash is simply no match. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
