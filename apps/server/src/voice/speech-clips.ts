import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Logger } from '../logging/logger';
import { linkSecretOf } from '../images/picture-links';
import { mediaOf } from '../media/media-of';
import { removeLeftFiles } from '../media/media-store';
import { refundGoldCoins } from '../accounts/benefits';
import { createSpeechStore, type SpeechStore } from './speech-store';
import { speechLinks, type SpeechLinks } from './speech-links';
import { deleteClipsOf, type SpeechOfMessages } from './speech-clip-repository';

const made = new WeakMap<Config, { store: SpeechStore; links: SpeechLinks }>();

/** The speech store (`speech/` of the media store) and link signer of a configuration, made once. */
export function speechOf(config: Config): { store: SpeechStore; links: SpeechLinks } {
  let speech = made.get(config);
  if (!speech) {
    speech = {
      store: createSpeechStore(mediaOf(config)),
      links: speechLinks(linkSecretOf(config)),
    };
    made.set(config, speech);
  }
  return speech;
}

/**
 * Drops the speech clips of messages inside `trx` (a clip paid for and never made gives its
 * coins back; one being made, which its listener hears as it comes, does not) and answers their
 * files, to remove with {@link removeSpeechFiles} once committed.
 */
export async function dropSpeechIn(
  trx: Kysely<Database>,
  messages: SpeechOfMessages,
): Promise<string[]> {
  if ('ids' in messages && messages.ids.length === 0) return [];
  const rows = await deleteClipsOf(trx, messages);
  const at = Date.now();
  for (const row of rows)
    if (
      row.state === 'pending' &&
      row.file === null &&
      !(row.making_until && Date.parse(row.making_until) > at)
    )
      await refundGoldCoins(trx, row.user_id, row.cost, {
        reason: { key: 'ledger.reasons.refundVoiceUnplayed' },
        reference: { type: 'message', id: row.message_id },
      });
  return rows.flatMap((row) => (row.file ? [row.file] : []));
}

/**
 * Removes the files {@link dropSpeechIn} answered, once their rows are committed. What the
 * person asked for is done by then: a file the store cannot remove (the bucket away for a
 * moment) is left behind and logged, never answered as a failure of that change.
 */
export async function removeSpeechFiles(
  config: Config,
  files: string[],
  log: Pick<Logger, 'error'>,
): Promise<void> {
  await removeLeftFiles(speechOf(config).store, files, 'spoken clip', log);
}

/**
 * Drops the speech clips of messages whose words changed or that go (edit, delete): their rows
 * and files. Call it before deleting the messages (the rows would go with them, leaving their
 * files behind).
 */
export async function dropSpeech(
  deps: { db: Kysely<Database>; config: Config; log: Pick<Logger, 'error'> },
  messages: SpeechOfMessages,
): Promise<void> {
  const files = await deps.db.transaction().execute((trx) => dropSpeechIn(trx, messages));
  await removeSpeechFiles(deps.config, files, deps.log);
}
