import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { describeDatabase } from '../db/describe-database';
import { openDatabase } from '../db/open-database';
import { migrateOnStart } from '../db/migrate-on-start';
import { seedIfEmpty } from '../seed/seed';
import { mediaOf } from '../media/media-of';
import { runCommand, say } from './run-command';

const USAGE = `Usage: pnpm seed

Fills an empty catalog: the tag map, the packages, 6 creators and their 40 mates with their
portraits. A catalog already filled is left as it is, so it is safe to run again, and while
servers run (on PostgreSQL, servers and this command seed one at a time). The server seeds
an empty catalog at start as well. It migrates first as MIGRATE allows, like start.`;

/** `seed`: the seed catalog, idempotent. */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const where = describeDatabase(config);
  const { db, dialect, close } = openDatabase(config);
  try {
    await migrateOnStart(db as never, dialect, config.migrate);
    const seeded = await seedIfEmpty(db, { media: mediaOf(config) });
    if (seeded) {
      say(
        `${where}: seeded ${seeded.mates} mates by ${seeded.creators} creators and ${seeded.tags} tags`,
      );
    } else {
      const { mates } = await db
        .selectFrom('mates')
        .select((eb) => eb.fn.countAll<number>().as('mates'))
        .executeTakeFirstOrThrow();
      say(`${where}: the catalog is already seeded (${mates} mates); nothing changed`);
    }
    return 0;
  } finally {
    await close();
  }
}

runCommand(main);
