import { Migrator, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './dialect';
import * as initial from './migrations/2026-11-22-0001-initial';
import * as search from './migrations/2026-11-22-0002-search';
import * as cardExtra from './migrations/2026-11-22-0003-card-extra';
import * as listingIndexes from './migrations/2026-11-22-0004-listing-indexes';
import * as packages from './migrations/2026-11-22-0005-packages';
import * as rooms from './migrations/2026-11-22-0006-rooms';
import * as oneDefaultPersona from './migrations/2026-11-22-0007-one-default-persona';
import * as chatLogIndex from './migrations/2026-11-23-0008-chat-log-index';
import * as cardSpec from './migrations/2026-11-23-0009-card-spec';
import * as unfinishedReplies from './migrations/2026-11-23-0010-unfinished-replies';
import * as studioAndModeration from './migrations/2026-11-23-0011-studio-and-moderation';
import * as jobs from './migrations/2026-11-23-0012-jobs';
import * as pictureMessages from './migrations/2026-11-23-0013-picture-messages';
import * as pictureSharing from './migrations/2026-11-23-0014-picture-sharing';
import * as speechClips from './migrations/2026-11-23-0015-speech-clips';
import * as ledger from './migrations/2026-11-24-0016-ledger';
import * as payments from './migrations/2026-11-24-0017-payments';
import * as passwordResets from './migrations/2026-11-24-0018-password-resets';
import * as swipes from './migrations/2026-11-24-0019-swipes';
import * as jobsStateIndex from './migrations/2026-11-25-0020-jobs-state-index';
import * as catalogCounts from './migrations/2026-11-25-0021-catalog-counts';
import * as dropChatLog from './migrations/2026-11-26-0022-drop-chat-log';
import * as speechMaking from './migrations/2026-11-26-0023-speech-making';
import * as privateNicknames from './migrations/2026-11-26-0024-private-nicknames';
import * as planPayments from './migrations/2026-11-26-0025-plan-payments';
import * as searchWordPeople from './migrations/2026-11-26-0026-search-word-people';
import * as checkoutPrice from './migrations/2026-11-28-0027-checkout-price';
import * as personaAvatars from './migrations/2026-11-28-0028-persona-avatars';
import * as searchWordSpellings from './migrations/2026-11-28-0029-search-word-spellings';
import * as memories from './migrations/2026-11-29-0030-memories';
import * as branches from './migrations/2026-11-29-0031-branches';
import * as messageSearch from './migrations/2026-11-29-0032-message-search';
import * as groupChats from './migrations/2026-11-29-0033-group-chats';
import * as yourData from './migrations/2026-11-29-0034-your-data';
import * as groupMemories from './migrations/2026-11-29-0035-group-memories';
import * as voiceCalls from './migrations/2026-11-29-0036-voice-calls';
import * as messageSearchOwner from './migrations/2026-11-29-0037-message-search-owner';
import * as groupStays from './migrations/2026-11-29-0038-group-stays';
import * as messageSearchPrefixes from './migrations/2026-11-29-0039-message-search-prefixes';
import * as messageIndexLater from './migrations/2026-11-29-0040-message-index-later';
import * as ledgerReasonKeys from './migrations/2026-11-30-0041-ledger-reason-keys';
import * as creatorSearch from './migrations/2026-12-02-0042-creator-search';
import * as messageIndexForgets from './migrations/2026-12-03-0043-message-index-forgets';
import * as versionStatuses from './migrations/2026-12-03-0044-version-statuses';

type DialectMigration = { up: (db: Kysely<unknown>, dialect: DialectName) => Promise<void> };

// Named by date so that they sort in the order they must run.
const MIGRATIONS: Record<string, DialectMigration> = {
  '2026-11-22-0001-initial': initial,
  '2026-11-22-0002-search': search,
  '2026-11-22-0003-card-extra': cardExtra,
  '2026-11-22-0004-listing-indexes': listingIndexes,
  '2026-11-22-0005-packages': packages,
  '2026-11-22-0006-rooms': rooms,
  '2026-11-22-0007-one-default-persona': oneDefaultPersona,
  '2026-11-23-0008-chat-log-index': chatLogIndex,
  '2026-11-23-0009-card-spec': cardSpec,
  '2026-11-23-0010-unfinished-replies': unfinishedReplies,
  '2026-11-23-0011-studio-and-moderation': studioAndModeration,
  '2026-11-23-0012-jobs': jobs,
  '2026-11-23-0013-picture-messages': pictureMessages,
  '2026-11-23-0014-picture-sharing': pictureSharing,
  '2026-11-23-0015-speech-clips': speechClips,
  '2026-11-24-0016-ledger': ledger,
  '2026-11-24-0017-payments': payments,
  '2026-11-24-0018-password-resets': passwordResets,
  '2026-11-24-0019-swipes': swipes,
  '2026-11-25-0020-jobs-state-index': jobsStateIndex,
  '2026-11-25-0021-catalog-counts': catalogCounts,
  '2026-11-26-0022-drop-chat-log': dropChatLog,
  '2026-11-26-0023-speech-making': speechMaking,
  '2026-11-26-0024-private-nicknames': privateNicknames,
  '2026-11-26-0025-plan-payments': planPayments,
  '2026-11-26-0026-search-word-people': searchWordPeople,
  '2026-11-28-0027-checkout-price': checkoutPrice,
  '2026-11-28-0028-persona-avatars': personaAvatars,
  '2026-11-28-0029-search-word-spellings': searchWordSpellings,
  '2026-11-29-0030-memories': memories,
  '2026-11-29-0031-branches': branches,
  '2026-11-29-0032-message-search': messageSearch,
  '2026-11-29-0033-group-chats': groupChats,
  '2026-11-29-0034-your-data': yourData,
  '2026-11-29-0035-group-memories': groupMemories,
  '2026-11-29-0036-voice-calls': voiceCalls,
  '2026-11-29-0037-message-search-owner': messageSearchOwner,
  '2026-11-29-0038-group-stays': groupStays,
  '2026-11-29-0039-message-search-prefixes': messageSearchPrefixes,
  '2026-11-29-0040-message-index-later': messageIndexLater,
  '2026-11-30-0041-ledger-reason-keys': ledgerReasonKeys,
  '2026-12-02-0042-creator-search': creatorSearch,
  '2026-12-03-0043-message-index-forgets': messageIndexForgets,
  '2026-12-03-0044-version-statuses': versionStatuses,
};

/** The names of every migration this server knows, in the order they run. */
export function migrationNames(): string[] {
  return Object.keys(MIGRATIONS);
}

/** Brings the database up to the latest migration; throws with the failing migration's name. */
export function migrateToLatest(db: Kysely<unknown>, dialect: DialectName): Promise<string[]> {
  return migrateTo(db, dialect, undefined);
}

/**
 * Brings the database up to the migration `target` (all of them when `undefined`), for tests
 * of a migration over data written before it; returns the names it ran.
 */
export async function migrateTo(
  db: Kysely<unknown>,
  dialect: DialectName,
  target: string | undefined,
): Promise<string[]> {
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, migration]) => [
      name,
      { up: (trx: Kysely<unknown>) => migration.up(trx, dialect) },
    ]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await (target
    ? migrator.migrateTo(target)
    : migrator.migrateToLatest());
  const failed = results.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(
      `Database migration failed${name}: ${String((error as Error).message ?? error)}`,
      {
        cause: error,
      },
    );
  }
  return results.map((result) => result.migrationName);
}

/** The migrations this server knows that the database has not run yet (none: up to date). */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(
          Object.keys(MIGRATIONS).map((name) => [name, { up: async () => {} }]),
        ) as Record<string, Migration>,
    },
  });
  const known = await migrator.getMigrations();
  return known.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}
