import type { Kysely } from 'kysely';
import type { Database, MessageTable } from '../db/schema';
import type { ImageConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { JobContext, JobQueue } from '../jobs/job-queue';
import { isProviderError } from '../domain/provider-error';
import { isOutOfSpace, OUT_OF_SPACE } from '../domain/out-of-space';
import { refundGoldCoins } from '../accounts/benefits';
import { isStorageUnavailable } from '../media/media-store';
import { en } from '../i18n/en';
import type { GeneratedImage, ImageEngine, ImageFailure } from './image-engine';
import { loadSharp } from './load-sharp';
import { PICTURE_JOB, type PicturePayload } from './picture-messages';
import type { PictureStore } from './picture-store';
import {
  coinsOwedFor,
  failPictureOnce,
  picturePayloadOf,
  setPictureFile,
  unqueuedPictures,
} from './picture-repository';

/**
 * The life of a picture job (#15), in one place:
 * - run: {@link drawPicture} asks the engine, turns its picture into WebP, stores it and
 *   writes its file on the message ({@link definePictureJob} registers it);
 * - retry: the job queue (`jobs/recorded-queue.ts`) runs a job again once when its process
 *   died or stopped mid-run, and fails it after a second interruption; a job that ends
 *   `failed` gives its coins back ({@link refundFailedPicture}, in the transaction that fails
 *   it);
 * - cancel: {@link cancelPicture} gives them back too, once;
 * - recovery: {@link recoverUnqueuedPictures} fails and refunds pictures whose job was never
 *   stored (the process died between charging and queueing).
 */

/**
 * Why a picture failed, as it is stored (on its message, or as its job's error) and told in
 * English; a reader is told it in their language (`pictureErrorIn`). The engine's detail goes
 * to the log.
 */
export const PICTURE_FAILURES: Record<ImageFailure, string> = en.pictures.failures;

/** Why a picture failed when it was drawn but the media store could not keep it. */
export const PICTURE_NOT_STORED = en.pictures.failures.notStored;

/** The error of a picture message whose job could not be queued (kept in English, as written). */
export const NOT_QUEUED = en.notices.pictures.notQueued;

/**
 * Time a job may take beyond the engine's own limit (storing the picture). Kept short: a run
 * whose process died is taken up again only after this whole time.
 */
const JOB_MARGIN_MS = 10_000;

/** What the picture job needs. */
export interface PictureJobDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  log: Logger;
  engine: ImageEngine;
  image: ImageConfig;
  store: PictureStore;
}

/** Registers the `picture` job: how it runs, how many at once, how long, and its refund. */
export function definePictureJob(deps: PictureJobDeps): void {
  deps.jobs.define<PicturePayload, { file: string }>(PICTURE_JOB, (job) => drawPicture(deps, job), {
    concurrency: deps.image.concurrency,
    timeoutMs: deps.image.timeoutMs + JOB_MARGIN_MS,
    onFinallyFailed: (job, trx) => refundFailedPicture(trx, job.payload),
  });
}

/**
 * One run of a picture job: draws, stores as WebP and writes the file on its message. A
 * failure throws an `Error` whose message is what people are told.
 */
export async function drawPicture(
  deps: PictureJobDeps,
  job: JobContext<PicturePayload>,
): Promise<{ file: string }> {
  const [drawn] = await generate(deps, job);
  const sharp = await loadSharp();
  const webp = await sharp(drawn!.data).webp({ quality: 90 }).toBuffer();
  const file = await storePicture(deps, job.id, webp);
  await recordPicture(deps, job, file);
  return { file };
}

/** Asks the engine for the job's picture; its failure becomes one of {@link PICTURE_FAILURES}. */
async function generate(
  { engine, log }: PictureJobDeps,
  job: JobContext<PicturePayload>,
): Promise<GeneratedImage[]> {
  const { payload } = job;
  const [width, height] = payload.size.split('x').map(Number) as [number, number];
  try {
    return await engine.generate(
      { prompt: payload.prompt, width, height, model: payload.model, nsfw: payload.nsfw },
      {
        signal: job.signal,
        onProgress: (fraction) => void job.progress(Math.min(fraction, 0.99)).catch(() => {}),
      },
    );
  } catch (error) {
    if (!isProviderError<ImageFailure>(error, 'image')) throw error;
    log.warn(`picture ${job.id}: ${error.message}`);
    throw new Error(PICTURE_FAILURES[error.failure], { cause: error });
  }
}

/** Stores the WebP picture; a store that cannot be reached or is full is said as such. */
async function storePicture(
  { store, log }: PictureJobDeps,
  jobId: string,
  webp: Buffer,
): Promise<string> {
  try {
    return await store.put(webp);
  } catch (error) {
    if (!isStorageUnavailable(error) && !isOutOfSpace(error)) throw error;
    // The bucket's address and error go to the log, not to the user.
    log.warn({ err: error }, `picture ${jobId}: ${(error as Error).message}`);
    throw new Error(isOutOfSpace(error) ? OUT_OF_SPACE : PICTURE_NOT_STORED, { cause: error });
  }
}

/**
 * Writes the stored file on the picture's message; keeps nothing when the message was deleted
 * while it was drawn, or when the disk is full.
 */
async function recordPicture(
  { db, store, log }: PictureJobDeps,
  job: JobContext<PicturePayload>,
  file: string,
): Promise<void> {
  let recorded: boolean;
  try {
    recorded = await setPictureFile(db, job.payload.messageId, file);
  } catch (error) {
    if (!isOutOfSpace(error)) throw error;
    // A full disk is said as such, not in the database's words; the file would be orphaned.
    log.warn({ err: error }, `picture ${job.id}: ${(error as Error).message}`);
    await store.remove(file).catch((removing: unknown) => {
      log.warn({ err: removing }, `picture ${job.id}: ${file} not removed`);
    });
    throw new Error(OUT_OF_SPACE, { cause: error });
  }
  if (!recorded) await store.remove(file);
}

/** Gives a failed picture's coins back, inside the transaction that marks its job failed. */
export async function refundFailedPicture(
  trx: Kysely<Database>,
  payload: PicturePayload,
): Promise<void> {
  await refundGoldCoins(trx, payload.userId, payload.cost, {
    reason: { key: 'ledger.reasons.refundPictureFailed' },
    reference: { type: 'message', id: payload.messageId },
  });
}

/**
 * Cancels a picture message's job when it is queued or running and gives its coins back, in
 * the same transaction (once: only the call that cancelled it refunds); `false` when it had
 * already ended.
 */
export async function cancelPicture(
  deps: { db: Kysely<Database>; jobs: JobQueue },
  row: MessageTable,
): Promise<boolean> {
  const jobId = row.image_job_id;
  if (!jobId) return false;
  // Refunded in the transaction that cancels: a cancel never stands without its refund.
  return deps.jobs.cancel(jobId, {
    onCancelled: async (trx) => {
      const data = await picturePayloadOf(trx, jobId);
      if (data)
        await refundGoldCoins(trx, data.userId, data.cost, {
          reason: { key: 'ledger.reasons.refundPictureCancelled' },
          reference: { type: 'message', id: data.messageId },
        });
    },
  });
}

/**
 * Fails the pictures a killed process left without a job — written and charged, then the
 * process died before the job was stored — and gives their gold coins back, as the ledger
 * charged them; answers how many. Only pictures asked for before `askedBefore`: a picture
 * another server is queueing right now is younger than that. Safe when several servers look
 * at once: the message is failed and refunded in one transaction, and only by the one whose
 * conditional update changed it.
 */
export async function recoverUnqueuedPictures(
  db: Kysely<Database>,
  askedBefore: Date,
): Promise<number> {
  let recovered = 0;
  for (const orphan of await unqueuedPictures(db, askedBefore)) {
    const failed = await db.transaction().execute(async (trx) => {
      if (!(await failPictureOnce(trx, orphan.id, NOT_QUEUED))) return false;
      // What this picture was charged (and not yet given back).
      const owed = await coinsOwedFor(trx, orphan.user_id, orphan.id);
      if (owed > 0)
        await refundGoldCoins(trx, orphan.user_id, owed, {
          reason: { key: 'ledger.reasons.refundPictureNotQueued' },
          reference: { type: 'message', id: orphan.id },
        });
      return true;
    });
    if (failed) recovered += 1;
  }
  return recovered;
}
