import { z } from 'zod';
import type { VariableValues } from './environment';

/** Signing in with Google and Discord. */
export const signInVariables = {
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  DISCORD_API_URL: z.url().default('https://discord.com/api'),
  DISCORD_TIMEOUT: z.coerce.number().min(0.1).max(120).default(10),
};

/** What a new account is given, and who moderates. */
export const accountVariables = {
  WELCOME_CHATS: z.coerce.number().int().min(0).default(50),
  WELCOME_GOLD_COINS: z.coerce.number().int().min(0).default(20),
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((address) => address.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email('must be e-mail addresses separated by commas')).max(1000))
    .optional(),
};

/** The part of the configuration the account variables give. */
export interface AccountSettings {
  google: { clientId: string | undefined; jwksUrl: string };
  discord: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    apiUrl: string;
    /** How long one call to Discord (its answer and body) may take. */
    timeoutMs: number;
  };
  welcome: { chats: number; goldCoins: number };
  /** The lowercased addresses whose verified accounts moderate reports (`ADMIN_EMAILS`). */
  adminEmails: ReadonlySet<string>;
}

/** Reads sign-in, the welcome gift and the moderators' addresses. */
export function readAccountSettings(
  values: VariableValues<typeof signInVariables & typeof accountVariables>,
): AccountSettings {
  return {
    google: { clientId: values.GOOGLE_CLIENT_ID, jwksUrl: values.GOOGLE_JWKS_URL },
    discord: {
      clientId: values.DISCORD_CLIENT_ID,
      clientSecret: values.DISCORD_CLIENT_SECRET,
      apiUrl: values.DISCORD_API_URL.replace(/\/+$/, ''),
      timeoutMs: values.DISCORD_TIMEOUT * 1000,
    },
    welcome: { chats: values.WELCOME_CHATS, goldCoins: values.WELCOME_GOLD_COINS },
    adminEmails: new Set(values.ADMIN_EMAILS ?? []),
  };
}
