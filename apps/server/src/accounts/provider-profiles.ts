import { z } from 'zod';

// What Google and Discord say about a person, read through schemas: an answer of another shape
// (a field of the wrong type, a missing id) is unreadable, a 5007 like an answer that is not
// JSON, never a 5000 from code that took its word for the types (issue #36).

/** Discord's answer to the authorization-code exchange (`POST /oauth2/token`). */
export const discordToken = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().min(1).max(50).optional(),
});

/**
 * Discord's user (`GET /users/@me` with the scope "identify email"). An avatar that is not an
 * image hash is dropped rather than refused: it is put into an address of Discord's CDN.
 */
export const discordUser = z.object({
  id: z.string().regex(/^\d{1,25}$/),
  username: z.string().min(1).max(100),
  global_name: z.string().max(100).nullish(),
  email: z.email().max(254).nullish(),
  verified: z.boolean().optional(),
  avatar: z
    .string()
    .regex(/^(a_)?[0-9a-f]{32}$/)
    .nullish()
    .catch(null),
});

/**
 * The claims of a Google ID token that sign-in reads (jose has checked its signature, issuer,
 * audience and times). Google writes `email_verified` as a boolean, in older tokens a string.
 */
export const googleClaims = z.object({
  sub: z.string().min(1).max(255),
  email: z.email().max(254).optional(),
  email_verified: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
    .optional(),
});
