import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/open-database';
import { migrateOnStart } from '../db/migrate-on-start';
import { grantBenefits, takeBackUpTo } from '../accounts/benefits';
import { storedReason, type Reason } from '../accounts/ledger-reasons';
import { runCommand } from './run-command';

const USAGE = `Usage: pnpm grant --email <address> [--chats N] [--gold-coins N] [--reason "why"]

Gives chats and gold coins to the account of an e-mail address, written in its ledger as a
grant; a negative number (--gold-coins=-5) takes back, never below zero, written as an
adjustment. It uses the same DATA_DIR / DATABASE_URL (and MIGRATE) as the server.`;

const whole = (name: string, value: string | undefined): number => {
  if (value === undefined) return 0;
  if (!/^-?\d{1,9}$/.test(value))
    throw new ConfigError(`--${name} must be a whole number (got ${JSON.stringify(value)})`);
  return Number(value);
};

/** `grant`: an operator gives benefits by e-mail (support, a gift, a correction). */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      chats: { type: 'string' },
      'gold-coins': { type: 'string' },
      reason: { type: 'string' },
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
  const change = {
    chats: whole('chats', values.chats),
    goldCoins: whole('gold-coins', values['gold-coins']),
  };
  if (change.chats === 0 && change.goldCoins === 0)
    throw new ConfigError('give --chats or --gold-coins (a number other than 0)');
  // The operator's own words are kept as written; without any, the server's sentence.
  const given = values.reason?.trim();
  const reason: Reason = given ? { text: given } : { key: 'ledger.reasons.operatorGift' };
  const config = loadConfig();
  const { db, dialect, close } = openDatabase(config);
  try {
    await migrateOnStart(db as never, dialect, config.migrate);
    const user = await db
      .selectFrom('users')
      .select(['id'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (!user) {
      console.error(`[mates] no account has the e-mail address ${email}`);
      return 1;
    }
    const gift = { chats: Math.max(0, change.chats), goldCoins: Math.max(0, change.goldCoins) };
    if (gift.chats > 0 || gift.goldCoins > 0)
      await grantBenefits(db, user.id, gift, { kind: 'grant', reason, reference: null });
    // Taking back never goes below zero: what was spent stays spent.
    const back = { chats: Math.max(0, -change.chats), goldCoins: Math.max(0, -change.goldCoins) };
    if (back.chats > 0 || back.goldCoins > 0)
      await db.transaction().execute((trx) => takeBackUpTo(trx, user.id, back, () => reason, null));
    const after = await db
      .selectFrom('benefits')
      .select(['chats', 'gold_coins'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    console.log(
      `[mates] ${email}: ${change.chats >= 0 ? '+' : ''}${change.chats} chats, ${change.goldCoins >= 0 ? '+' : ''}${change.goldCoins} gold coins (${storedReason(reason).reason}); now ${after.chats} chats and ${after.gold_coins} gold coins`,
    );
    return 0;
  } finally {
    await close();
  }
}

runCommand(main);
