import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import type { RateLimits } from './rate-limits';

/** What the account services (sign-up, sign-in, passwords, settings) work with. */
export interface AccountDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  limits: RateLimits;
  config: Pick<Config, 'publicUrl' | 'welcome' | 'adminEmails'>;
}
