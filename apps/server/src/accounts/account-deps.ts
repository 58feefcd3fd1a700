import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import type { RateLimits } from './rate-limits';
import type { GreetingsOf } from './persona-service';

/** What the account services (sign-up, sign-in, passwords, settings) work with. */
export interface AccountDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  limits: RateLimits;
  config: Pick<Config, 'publicUrl' | 'welcome' | 'adminEmails'>;
  /** The chats a new nickname reaches (see {@link GreetingsOf}). */
  greetings?: GreetingsOf;
}
