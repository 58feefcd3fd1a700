import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/open-database';
import { migrateOnStart } from '../db/migrate-on-start';
import { mediaOf } from '../media/media-of';
import { buildDataZip } from '../privacy/data-export-service';
import { megabytes, runCommand, say } from './run-command';

const USAGE = `Usage: pnpm export-account --email <address> <file.zip>

Writes everything the account of an e-mail address holds into one zip, as "Download my data"
gives it to its owner (chats as JSON and Markdown, their mates as Character Card V3 PNGs,
pictures, voice clips, the account, reviews, favorites, follows, the ledger and payments), for a
request made to the operator. Nothing is mailed. It uses the same DATA_DIR / DATABASE_URL,
S3_* (and MIGRATE) as the server.`;

/** `export-account`: an operator exports an account on its owner's request. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const email = values.email?.trim().toLowerCase();
  if (!email) throw new ConfigError(`--email is required\n\n${USAGE}`);
  if (positionals.length !== 1) throw new ConfigError(`name the zip file to write\n\n${USAGE}`);
  const file = path.resolve(positionals[0]!);
  if (fs.existsSync(file)) throw new ConfigError(`${file} exists already: name a new file`);
  const config = loadConfig();
  const { db, dialect, close } = openDatabase(config);
  try {
    await migrateOnStart(db as never, dialect, config.migrate);
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    if (!user) {
      console.error(`[mates] no account has the e-mail address ${email}`);
      return 1;
    }
    let told = -1;
    await buildDataZip({ db, dialect, media: mediaOf(config) }, user, file, {
      signal: new AbortController().signal,
      progress: (fraction) => {
        const tenth = Math.floor(fraction * 10);
        if (tenth > told) say(`${email}: ${(told = tenth) * 10}%`);
      },
    });
    say(`${email}: wrote ${file} (${megabytes(fs.statSync(file).size)})`);
    return 0;
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  } finally {
    await close();
  }
}

runCommand(main);
