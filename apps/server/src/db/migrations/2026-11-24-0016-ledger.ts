import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * The benefits ledger (#17): every row of `benefit_ledger` gets its `kind` (grant, purchase,
 * renewal, spend, refund, adjustment), what it paid for or came from (`reference_type`,
 * `reference_id`, both `null` when nothing) and the balances right after it (`chats_after`,
 * `gold_coins_after`). Rows written before are filled in: the kind from the reason (`welcome`
 * a grant, `refund…` a refund, any other take a spend, any other gift an adjustment) and the
 * balances as a running sum per user in the order the rows were written. `users` gets the
 * daily spending caps (`null`: none).
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('benefit_ledger')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('adjustment'))
    .execute();
  await db.schema.alterTable('benefit_ledger').addColumn('reference_type', 'varchar(16)').execute();
  await db.schema.alterTable('benefit_ledger').addColumn('reference_id', 'text').execute();
  await db.schema
    .alterTable('benefit_ledger')
    .addColumn('chats_after', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('benefit_ledger')
    .addColumn('gold_coins_after', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await sql`
    update benefit_ledger set kind = case
      when reason = 'welcome' then 'grant'
      when reason like 'refund%' then 'refund'
      when chats_delta + gold_coins_delta < 0 then 'spend'
      else 'adjustment'
    end`.execute(db);
  // Both dialects run correlated subqueries alike; the running sum is over ids up to this one.
  await sql`
    update benefit_ledger set
      chats_after = (select sum(earlier.chats_delta) from benefit_ledger earlier
        where earlier.user_id = benefit_ledger.user_id and earlier.id <= benefit_ledger.id),
      gold_coins_after = (select sum(earlier.gold_coins_delta) from benefit_ledger earlier
        where earlier.user_id = benefit_ledger.user_id and earlier.id <= benefit_ledger.id)`.execute(
    db,
  );

  // The ledger page (newest first) and today's spending (by time).
  await db.schema
    .createIndex('benefit_ledger_user_id')
    .on('benefit_ledger')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('benefit_ledger_user_created')
    .on('benefit_ledger')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema.alterTable('users').addColumn('daily_chats_cap', 'integer').execute();
  await db.schema.alterTable('users').addColumn('daily_gold_coins_cap', 'integer').execute();
}
