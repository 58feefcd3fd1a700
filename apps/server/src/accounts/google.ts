import type { JWTPayload } from 'jose';
import type { Config } from '../config';
import { refused } from '../domain/errors';
import type { Logger } from '../logging/logger';
import type { ExternalIdentity } from './external-account-service';
import { googleClaims } from './provider-profiles';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** Checks a Google ID token (signature, issuer, audience, times) and answers its claims. */
export type GoogleVerifier = (credential: string) => Promise<JWTPayload>;

/**
 * The verifier of Google ID tokens for this server. jose is loaded at the first Google sign-in
 * (a server without Google never needs it); the keys are fetched once and cached by jose, and
 * rotate on Google's schedule.
 */
export function googleVerifier(
  config: Pick<Config, 'google'>,
  fetch: typeof globalThis.fetch,
): GoogleVerifier {
  let verifier: Promise<GoogleVerifier> | undefined;
  return async (credential) => {
    verifier ??= import('jose').then(({ createRemoteJWKSet, customFetch, jwtVerify }) => {
      const googleKeys = createRemoteJWKSet(new URL(config.google.jwksUrl), {
        [customFetch]: (url, options) => fetch(url, options),
      });
      return async (token) =>
        (
          await jwtVerify(token, googleKeys, {
            issuer: GOOGLE_ISSUERS,
            audience: config.google.clientId,
          })
        ).payload;
    });
    return (await verifier)(credential);
  };
}

/** What reading a Google sign-in needs. */
export interface GoogleDeps {
  config: Pick<Config, 'google'>;
  verifyGoogle: GoogleVerifier;
  log: Logger;
}

/**
 * Who a Google ID token belongs to; a 5007 when Google sign-in is not set up, or the token is
 * not one Google made for this server (the detail is logged).
 */
export async function googleIdentity(
  deps: GoogleDeps,
  credential: string,
): Promise<ExternalIdentity> {
  if (!deps.config.google.clientId) throw refused('notices.account.googleNotSetUp');
  let claims;
  try {
    claims = await deps.verifyGoogle(credential);
  } catch (error) {
    deps.log.warn(`Google credential refused: ${(error as Error).message}`);
    throw refused('notices.account.googleNotConfirmed');
  }
  const profile = googleClaims.safeParse(claims);
  if (!profile.success) {
    // Named by its fields only: the claims hold the person's address.
    const fields = profile.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    deps.log.warn(`Google credential unreadable: ${fields.join('; ')}`);
    throw refused('notices.account.googleNotConfirmed');
  }
  return {
    provider: 'google',
    subject: profile.data.sub,
    email: profile.data.email ?? null,
    emailVerified: profile.data.email_verified === true,
    // Not the Google name and photo, which are usually the person's own name and face: what
    // they publish here goes under a generated name until they choose one.
    nickname: '',
    avatar: null,
  };
}
