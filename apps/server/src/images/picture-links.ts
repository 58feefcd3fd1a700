import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/** How long a picture link works. */
export const PICTURE_LINK_SECONDS = 60 * 60;

/** Where pictures are served: `?messageId&expires&signature`. */
export const PICTURE_PATH = '/api/room/picture';

/** Where shared pictures are served to anyone: `?id` (see {@link sharedPictureUrl}). */
export const SHARED_PICTURE_PATH = '/api/room/sharedPicture';

/** A shared picture's id: 18 random bytes (144 bits), base64url, so no one can guess one. */
export function newShareId(): string {
  return randomBytes(18).toString('base64url');
}

/** Whether `id` has the form {@link newShareId} makes (checked before any look-up). */
export function isShareId(id: string): boolean {
  return /^[A-Za-z0-9_-]{24}$/.test(id);
}

/** The public link of a shared picture, in the form of the signed links (a path on this site). */
export function sharedPictureUrl(shareId: string): string {
  return `${SHARED_PICTURE_PATH}?${new URLSearchParams({ id: shareId })}`;
}

/**
 * The key that signs picture links: 32 random bytes made on first use and kept in
 * `$DATA_DIR/picture-secret` (readable by the server's user only), so links outlive restarts
 * and every process sharing the data folder signs alike.
 */
export function loadPictureSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'picture-secret');
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} is too short to sign picture links`);
  return Buffer.from(secret);
}

/**
 * The key that signs picture and voice links: `LINK_SECRET` when it is set (the same on every
 * server of a deployment, so a link made by one opens on all), else {@link loadPictureSecret}.
 */
export function linkSecretOf(config: Pick<Config, 'linkSecret' | 'dataDir'>): Buffer {
  return config.linkSecret !== null
    ? Buffer.from(config.linkSecret)
    : loadPictureSecret(config.dataDir);
}

const signatureOf = (secret: Buffer, messageId: string, expires: number) =>
  createHmac('sha256', secret).update(`picture:${messageId}:${expires}`).digest('base64url');

/** Signs links to the pictures of messages, and checks them. */
export function pictureLinks(secret: Buffer) {
  return {
    /** A link to the message's picture that works for an hour from `nowMs`. */
    sign(messageId: string, nowMs = Date.now()): string {
      const expires = Math.floor(nowMs / 1000) + PICTURE_LINK_SECONDS;
      const query = new URLSearchParams({
        messageId,
        expires: String(expires),
        signature: signatureOf(secret, messageId, expires),
      });
      return `${PICTURE_PATH}?${query}`;
    },
    /** Whether a link's fields are ours and not expired. */
    verify(messageId: string, expires: string, signature: string, nowMs = Date.now()): boolean {
      const at = Number(expires);
      if (!/^\d{1,12}$/.test(expires) || at * 1000 < nowMs) return false;
      const expected = Buffer.from(signatureOf(secret, messageId, at));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** What {@link pictureLinks} answers. */
export type PictureLinks = ReturnType<typeof pictureLinks>;
