import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z.url().optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Mates <no-reply@mates.local>'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  DISCORD_API_URL: z.url().default('https://discord.com/api'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  WELCOME_CHATS: z.coerce.number().int().min(0).default(50),
  WELCOME_GOLD_COINS: z.coerce.number().int().min(0).default(20),
});

/** The server's configuration, read from the environment once at start. */
export interface Config {
  port: number;
  dataDir: string;
  /** Portraits and other files served under `/media`: `$DATA_DIR/media`. */
  mediaDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
  google: { clientId: string | undefined; jwksUrl: string };
  discord: { clientId: string | undefined; clientSecret: string | undefined; apiUrl: string };
  webDistDir: string;
  welcome: { chats: number; goldCoins: number };
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and checks the configuration; throws a {@link ConfigError} naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    throw new ConfigError(`Invalid ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    port: values.PORT,
    dataDir,
    mediaDir: path.join(dataDir, 'media'),
    databaseUrl: values.DATABASE_URL,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    smtpUrl: values.SMTP_URL,
    mailOutboxDir: path.resolve(values.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    mailFrom: values.MAIL_FROM,
    google: { clientId: values.GOOGLE_CLIENT_ID, jwksUrl: values.GOOGLE_JWKS_URL },
    discord: {
      clientId: values.DISCORD_CLIENT_ID,
      clientSecret: values.DISCORD_CLIENT_SECRET,
      apiUrl: values.DISCORD_API_URL.replace(/\/+$/, ''),
    },
    webDistDir: path.resolve(
      values.WEB_DIST_DIR ?? path.join(import.meta.dirname, '..', '..', 'web', 'dist'),
    ),
    welcome: { chats: values.WELCOME_CHATS, goldCoins: values.WELCOME_GOLD_COINS },
  };
}
