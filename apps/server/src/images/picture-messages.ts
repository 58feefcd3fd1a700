import type { Kysely } from 'kysely';
import type { ImageSize, JobState, Message, MessageImage } from '@mates/api-client';
import type { Config } from '../config';
import type { Database, MessageTable } from '../db/schema';
import type { Logger } from '../logging/logger';
import { toMessage } from '../chat/messages';
import { createPictureStore, type PictureStore } from './picture-store';
import { mediaOf } from '../media/media-of';
import { removeLeftFiles } from '../media/media-store';
import { linkSecretOf, pictureLinks, sharedPictureUrl, type PictureLinks } from './picture-links';
import { jobsOf, type PictureJobFields } from './picture-repository';
import { en } from '../i18n/en';
import { textsFor, type SentenceKey } from '../i18n/texts';

/** The kind of the jobs that draw picture messages. */
export const PICTURE_JOB = 'picture';

/** What the picture job gets. */
export interface PicturePayload {
  messageId: string;
  userId: string;
  prompt: string;
  size: ImageSize;
  model?: string;
  /** The user's preference and the mate's flag together. */
  nsfw: boolean;
  /** Gold coins charged, given back when it fails or is cancelled. */
  cost: number;
}

const made = new WeakMap<Config, { store: PictureStore; links: PictureLinks }>();

/** The picture store (`pictures/` of the media store) and link signer of a server's configuration. */
export function picturesOf(config: Config): { store: PictureStore; links: PictureLinks } {
  let pictures = made.get(config);
  if (!pictures) {
    pictures = {
      store: createPictureStore(mediaOf(config)),
      links: pictureLinks(linkSecretOf(config)),
    };
    made.set(config, pictures);
  }
  return pictures;
}

/**
 * Removes the files of pictures whose rows are gone (a message or a chat deleted). What the
 * person asked for is done by then: a file the store cannot remove is left behind and logged,
 * never answered as a failure of that change.
 */
export async function removePictureFiles(
  deps: { config: Config; log: Pick<Logger, 'error'> },
  files: (string | null)[],
): Promise<void> {
  await removeLeftFiles(picturesOf(deps.config).store, files, 'picture', deps.log);
}

/**
 * A failed picture's sentences as they are stored (in English, on its message or as its job's
 * error, since pictures began: servers of an earlier version read them too), by key.
 */
const FAILURE_KEYS = new Map<string, SentenceKey>([
  ...Object.entries(en.pictures.failures).map(
    ([name, text]) => [text, `pictures.failures.${name}` as SentenceKey] as const,
  ),
  [en.notices.pictures.notQueued, 'notices.pictures.notQueued'],
  [en.notices.server.full, 'notices.server.full'],
]);

/**
 * Why a picture failed, as stored, in the reader's `language`. What is no sentence of ours (the
 * job queue's own, "The job ran longer than 300000 ms.", or a fault's message, which the log
 * keeps) is said as the engine failing, or taking too long, never in its own words.
 */
export function pictureErrorIn(language: string, stored: string | null): string | null {
  if (stored === null) return null;
  const key =
    FAILURE_KEYS.get(stored) ??
    (stored.startsWith('The job ran longer than')
      ? 'pictures.failures.timeout'
      : 'pictures.failures.failed');
  return textsFor(language)(key);
}

/**
 * A picture message's `image` from its row and its job (`null` for text messages), its failure
 * said in the reader's `language`.
 */
export function imageOf(
  row: MessageTable,
  job: PictureJobFields | undefined,
  links: PictureLinks,
  language: string,
): MessageImage | null {
  if (row.image_prompt === null) return null;
  const state: JobState = row.image_error ? 'failed' : ((job?.state as JobState) ?? 'queued');
  const done = state === 'succeeded' && row.image_file !== null;
  return {
    jobId: row.image_job_id ?? '',
    // A job that succeeded after its message lost its file (deleted meanwhile) shows nothing.
    state: state === 'succeeded' && !done ? 'failed' : state,
    progress: state === 'succeeded' ? 1 : Number(job?.progress ?? 0),
    url: done ? links.sign(row.id) : null,
    prompt: row.image_prompt,
    size: (row.image_size ?? '768x1024') as ImageSize,
    model: row.image_model,
    error: pictureErrorIn(language, row.image_error ?? job?.error ?? null),
    sharedUrl: done && row.image_share_id ? sharedPictureUrl(row.image_share_id) : null,
  };
}

/**
 * Messages in API form, picture messages with their `image` (fresh signed links; a failure in
 * the reader's `language`).
 */
export async function withImages(
  db: Kysely<Database>,
  config: Config,
  rows: MessageTable[],
  language: string,
): Promise<Message[]> {
  if (!rows.some((row) => row.image_prompt !== null)) return rows.map((row) => toMessage(row));
  const jobs = await jobsOf(db, rows);
  const { links } = picturesOf(config);
  return rows.map((row) =>
    toMessage(
      row,
      imageOf(row, row.image_job_id ? jobs.get(row.image_job_id) : undefined, links, language),
    ),
  );
}
