import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ImageJobRef, JobStatus, Paged, RoomPicture, ImageSize } from '@mates/api-client';
import type { Database, MessageTable, UserTable } from '../db/schema';
import type { ImageConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { JobQueue } from '../jobs/job-queue';
import type { RateLimits } from '../accounts/rate-limits';
import { consume } from '../accounts/rate-limits';
import { refundGoldCoins, spendGoldCoins } from '../accounts/benefits';
import { appendMessage } from '../chat/messages';
import { canContinue, findOwnRoom } from '../chat/rooms';
import { paging, toPage } from '../catalog/mate-rows';
import { toBool } from '../db/dialect';
import { invalid, missing, refused } from '../domain/errors';
import { isProviderError } from '../domain/provider-error';
import type { ImageEngine } from './image-engine';
import type { createImageSchema, roomPicturesSchema, sharePictureSchema } from './image-schemas';
import { newShareId, sharedPictureUrl, type PictureLinks } from './picture-links';
import { PICTURE_JOB, imageOf, type PicturePayload } from './picture-messages';
import { NOT_QUEUED, cancelPicture } from './picture-job-service';
import {
  countFinishedPictures,
  failPictureOnce,
  finishedPicturesPage,
  isFinishedPicture,
  jobsOf,
  mateNsfwOf,
  messageById,
  ownPictureByJob,
  pictureFileOf,
  setPictureJob,
  setPictureShare,
  shareableMessage,
  sharedPictureFileOf,
} from './picture-repository';

/** What serving a picture's bytes needs: the database and the link signer. */
export interface PictureFileDeps {
  db: Kysely<Database>;
  links: PictureLinks;
}

/** What the picture calls need, with a picture engine set up. */
export interface PictureDeps extends PictureFileDeps {
  engine: ImageEngine;
  image: ImageConfig;
  jobs: JobQueue;
  limits: Pick<RateLimits, 'createImage'>;
  /** The request's logger (with its id and user). */
  log: Logger;
  /** The caller's language: a failure is said in it. */
  language: string;
}

/** A picture link's fields (`GET /room/picture`). */
export interface SignedPicture {
  messageId: string;
  expires: string;
  signature: string;
}

/**
 * The file of the picture a signed link points at: `forbidden` when the link is not ours or
 * expired, `null` when there is no such picture (yet).
 */
export async function signedPictureFile(
  deps: PictureFileDeps,
  link: SignedPicture,
): Promise<string | 'forbidden' | null> {
  if (!deps.links.verify(link.messageId, link.expires, link.signature)) return 'forbidden';
  return pictureFileOf(deps.db, link.messageId);
}

/**
 * The file of the picture shared under `shareId`, or `null`: not shared (any more), or its
 * mate is hidden by moderators or deleted.
 */
export function sharedPictureFile(deps: PictureFileDeps, shareId: string): Promise<string | null> {
  return sharedPictureFileOf(deps.db, shareId);
}

/**
 * `POST /room/createImage`: writes a picture message in one of the user's rooms, charges it
 * in gold coins (in one transaction: a refusal keeps neither), and queues its job.
 */
export async function createPicture(
  deps: PictureDeps,
  user: UserTable,
  input: z.output<typeof createImageSchema>,
): Promise<ImageJobRef> {
  const room = await findOwnRoom(deps.db, user.id, input.roomId);
  if (!(await canContinue(deps.db, user, room))) throw refused('room.readOnly');
  if (input.model && input.model !== deps.image.model) await checkModel(deps, input.model);
  await consume(deps.limits.createImage, user.id);
  const mateNsfw = await mateNsfwOf(deps.db, room.mate_id);
  const size = input.size ?? '768x1024';
  const picture = { prompt: input.prompt, size, ...(input.model ? { model: input.model } : {}) };
  // The job's id is written with the message: a process that dies before the job is stored
  // leaves a message whose job does not exist, which start-up recovery fails and refunds.
  const jobId = randomUUID();
  const message = await chargePicture(deps, user.id, room.id, picture, jobId);
  const payload: PicturePayload = {
    messageId: message.id,
    userId: user.id,
    ...picture,
    nsfw: toBool(user.nfsw) && toBool(mateNsfw),
    cost: deps.image.cost,
  };
  await queuePicture(deps, payload, jobId);
  return { jobId, messageId: message.id };
}

/** Refuses (4000) a model that the engine does not list; 5007 when the engine does not answer. */
async function checkModel({ engine, log }: PictureDeps, model: string): Promise<void> {
  const listed = await engine.listModels().catch((error: unknown) => {
    if (!isProviderError(error, 'image')) throw error;
    log.warn(`image models: ${error.message}`);
    throw refused('notices.pictures.engineDown');
  });
  if (!listed.some((offered) => offered.id === model))
    throw invalid('notices.pictures.unknownModel');
}

/** Appends the picture message with its job's id and charges it, in one transaction. */
function chargePicture(
  { db, image }: PictureDeps,
  userId: string,
  roomId: string,
  picture: { prompt: string; size: ImageSize; model?: string },
  jobId: string,
): Promise<MessageTable> {
  return db.transaction().execute(async (trx) => {
    const added = await appendMessage(trx, roomId, {
      role: 'mate',
      content: '',
      status: 'complete',
      picture,
    });
    await setPictureJob(trx, added.id, jobId);
    // Charged for the message it pays for; a refusal rolls the message back.
    const spent = await spendGoldCoins(trx, userId, image.cost, {
      reason: { key: 'ledger.reasons.picture' },
      reference: { type: 'message', id: added.id },
    });
    if (spent === 'capped') throw refused('notices.balance.dailyCap');
    if (spent === 'short') throw refused('notices.pictures.notEnoughCoins');
    return added;
  });
}

/** Queues the picture's job; when the queue refuses it, the coins go back and the message fails. */
async function queuePicture(
  { db, jobs, log, image }: PictureDeps,
  payload: PicturePayload,
  jobId: string,
): Promise<void> {
  try {
    await jobs.enqueue(PICTURE_JOB, payload, { id: jobId });
  } catch (error) {
    log.error(`picture for ${payload.messageId} not queued: ${(error as Error).message}`);
    await db.transaction().execute(async (trx) => {
      // Marked first: the start-up recovery of pictures never queued may have failed and
      // refunded it already, on this server or another; the coins go back once.
      if (!(await failPictureOnce(trx, payload.messageId, NOT_QUEUED))) return;
      await refundGoldCoins(trx, payload.userId, image.cost, {
        reason: { key: 'ledger.reasons.refundPictureNotQueued' },
        reference: { type: 'message', id: payload.messageId },
      });
    });
    throw refused('notices.pictures.notQueued');
  }
}

/** The picture message of `jobId` in one of `userId`'s rooms, or a refusal (4004). */
async function ownPicture(deps: PictureDeps, userId: string, jobId: string) {
  const row = await ownPictureByJob(deps.db, userId, jobId);
  if (!row) throw missing('notices.notFound.picture');
  return row;
}

/** Where a picture message's job stands. */
async function statusOf(deps: PictureDeps, row: MessageTable): Promise<JobStatus> {
  const jobs = await jobsOf(deps.db, [row]);
  const job = jobs.get(row.image_job_id!);
  const picture = imageOf(row, job, deps.links, deps.language)!;
  return {
    jobId: picture.jobId,
    state: picture.state,
    progress: picture.progress,
    images: picture.url ? [picture.url] : [],
    error: picture.error,
    createdAt: job?.created_at ?? row.created_at,
    messageId: row.id,
  };
}

/** `GET /room/checkJobStatus`: where one of the user's pictures stands. */
export async function pictureStatus(
  deps: PictureDeps,
  userId: string,
  jobId: string,
): Promise<JobStatus> {
  return statusOf(deps, await ownPicture(deps, userId, jobId));
}

/** `POST /room/cancelImage`: cancels one of the user's pictures (coins back) and says where it stands. */
export async function cancelOwnPicture(
  deps: PictureDeps,
  userId: string,
  jobId: string,
): Promise<JobStatus> {
  const row = await ownPicture(deps, userId, jobId);
  await cancelPicture(deps, row);
  return statusOf(deps, row);
}

/** A finished picture's row as `/room/pictures` lists it, with a fresh signed link. */
function toRoomPicture(row: MessageTable, links: PictureLinks): RoomPicture {
  return {
    messageId: row.id,
    roomId: row.room_id,
    url: links.sign(row.id),
    prompt: row.image_prompt ?? '',
    size: (row.image_size ?? '768x1024') as ImageSize,
    model: row.image_model,
    createdAt: row.created_at,
    sharedUrl: row.image_share_id ? sharedPictureUrl(row.image_share_id) : null,
  };
}

/** `GET /room/pictures`: the pictures drawn in one of the user's rooms, newest first, a page. */
export async function roomPictures(
  deps: PictureDeps,
  userId: string,
  input: z.output<typeof roomPicturesSchema>,
): Promise<Paged<RoomPicture>> {
  const room = await findOwnRoom(deps.db, userId, input.roomId);
  const pages = paging(input);
  const [total, rows] = await Promise.all([
    countFinishedPictures(deps.db, room.id),
    finishedPicturesPage(deps.db, room.id, pages),
  ]);
  return toPage(
    rows.map((row) => toRoomPicture(row, deps.links)),
    pages,
    total,
  );
}

/**
 * `POST /room/sharePicture`: shares a finished picture of the user's through a public link,
 * or unshares it. Sharing twice keeps the first link; unsharing forgets it, so the old link
 * finds nothing at once. A picture of a mate moderators hid (or its creator deleted) cannot be
 * shared.
 */
export async function sharePicture(
  deps: PictureDeps,
  userId: string,
  input: z.output<typeof sharePictureSchema>,
): Promise<RoomPicture> {
  const row = await shareableMessage(deps.db, userId, input.messageId);
  if (!row) throw missing('notices.notFound.picture');
  if (row.image_prompt === null) throw invalid('notices.pictures.notAPicture');
  if (!(await isFinishedPicture(deps.db, row.room_id, row.id)))
    throw refused('notices.pictures.notFinished');
  await setPictureShare(deps.db, row.id, input.shared ? newShareId() : null);
  const updated = await messageById(deps.db, row.id);
  // Deleted meanwhile.
  if (!updated?.image_file) throw missing('notices.notFound.picture');
  return toRoomPicture(updated, deps.links);
}
