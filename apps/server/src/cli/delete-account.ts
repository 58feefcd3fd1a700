import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/open-database';
import { migrateOnStart } from '../db/migrate-on-start';
import { mediaOf } from '../media/media-of';
import { createMailer } from '../mail/mailer';
import { createJobQueue } from '../jobs/create-job-queue';
import { createLogger } from '../logging/logger';
import { paymentDeps } from '../payments/payment-deps';
import { shareSessionCache } from '../accounts/session-cache';
import { closeAccount } from '../privacy/account-deletion-service';
import { runCommand, say } from './run-command';

const USAGE = `Usage: pnpm delete-account --email <address> [--keep-public-mates] --yes

Deletes the account of an e-mail address, as "Delete my account" does for its owner, on their
request: a paid plan is cancelled at Stripe, every session ends, chats, personas, pictures,
voice clips and mates are deleted, files too (folder or bucket); --keep-public-mates keeps
their public mates for others under "a former member". The ledger and purchases are kept
without the person. The address is mailed that it is done. --yes says you mean it: nothing
can be undone. It uses the same settings as the server (DATA_DIR / DATABASE_URL, S3_*,
STRIPE_*, REDIS_URL, SMTP_URL, MIGRATE).`;

/** `delete-account`: an operator deletes an account on its owner's request. */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      'keep-public-mates': { type: 'boolean' },
      yes: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const email = values.email?.trim().toLowerCase();
  if (!email) throw new ConfigError(`--email is required\n\n${USAGE}`);
  if (!values.yes) throw new ConfigError(`add --yes to delete the account of ${email}\n\n${USAGE}`);
  const config = loadConfig();
  const log = createLogger(config.log);
  const { db, dialect, close } = openDatabase(config, log);
  // With Redis, the other servers hear at once that the person's sessions are gone.
  const redis = config.redis
    ? await (await import('../redis/connect-redis')).connectRedis(config.redis, log)
    : null;
  try {
    await migrateOnStart(db as never, dialect, config.migrate);
    if (redis) shareSessionCache(db, redis, log);
    const user = await db
      .selectFrom('users')
      .select(['id', 'email', 'language'])
      .where('email', '=', email)
      .where('closing_at', 'is', null)
      .executeTakeFirst();
    if (!user) {
      console.error(`[mates] no account has the e-mail address ${email}`);
      return 1;
    }
    const publicMates = values['keep-public-mates'] ? 'keep' : 'delete';
    await closeAccount(
      {
        db,
        dialect,
        // Only to cancel the person's jobs: their rows, which every server watches.
        jobs: createJobQueue({
          db,
          dialect,
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          log,
        }),
        mailer: createMailer({
          smtpUrl: config.smtpUrl,
          outboxDir: config.mailOutboxDir,
          from: config.mailFrom,
          log,
        }),
        media: mediaOf(config),
        log,
        payments: paymentDeps(db, config),
      },
      user,
      publicMates,
    );
    say(
      `${email}: the account is deleted${publicMates === 'keep' ? ' (its public mates kept under "a former member")' : ''}`,
    );
    return 0;
  } finally {
    await redis?.close();
    await close();
  }
}

runCommand(main);
