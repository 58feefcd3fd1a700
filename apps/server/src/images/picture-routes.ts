import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { loadSharp } from './load-sharp';
import type { ImageJobRef, ImageSize, JobStatus, Paged, RoomPicture } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { badInput, notFound, notice } from '../http/envelope';
import { consume } from '../accounts/rate-limits';
import { DAILY_CAP_REACHED, refundGoldCoins, spendGoldCoins } from '../accounts/benefits';
import { appendMessage } from '../chat/messages';
import { canContinue, findOwnRoom } from '../chat/rooms';
import { textsFor } from '../i18n/texts';
import { toBool } from '../db/dialect';
import type { MessageTable } from '../db/schema';
import { isProviderError } from '../domain/provider-error';
import type { ImageFailure } from './image-engine';
import {
  createImageSchema,
  jobStatusSchema,
  roomPicturesSchema,
  sharePictureSchema,
} from './image-schemas';
import { isShareId, newShareId, sharedPictureUrl, type PictureLinks } from './picture-links';
import { paging, toPage } from '../catalog/mate-rows';
import { PICTURE_JOB, imageOf, jobsOf, picturesOf, type PicturePayload } from './picture-messages';
import { isStorageUnavailable } from '../media/media-store';
import { isOutOfSpace, OUT_OF_SPACE } from '../http/out-of-space';
import { en } from '../i18n/en';

/** What a picture costs to whoever has too few gold coins (5007). */
export const NOT_ENOUGH_COINS =
  'You do not have enough gold coins for a picture. Get more in the shop, then try again.';

/** Why a picture failed, as people are told it (the engine's detail goes to the log). */
export const PICTURE_FAILURES: Record<ImageFailure, string> = {
  unreachable: 'The picture engine could not be reached.',
  unauthorized: 'The picture engine refused this server. Tell the server’s owner.',
  busy: 'The picture engine is busy. Try again in a little while.',
  refused: 'The picture engine refused to draw this. Try describing it differently.',
  rejected: 'The picture engine cannot draw this model or size.',
  failed: 'The picture engine failed while drawing.',
  timeout: 'The picture took too long to draw.',
  cut: 'The connection to the picture engine dropped while drawing.',
  malformed: 'The picture engine answered without a picture.',
  cancelled: 'The picture was cancelled.',
};

/** Why a picture failed when it was drawn but the media store could not keep it. */
export const PICTURE_NOT_STORED =
  'The picture was drawn but could not be stored. Try again in a little while.';

/** What `/room/sharePicture` answers (5007) for a picture not drawn (yet). */
export const NOT_FINISHED = 'Only a finished picture can be shared. Wait until it is drawn.';

/** The message of a picture whose job could not be queued. */
export const NOT_QUEUED = 'The picture could not be started. Your gold coins were given back.';

/**
 * Time a job may take beyond the engine's own limit (storing the picture). Kept short: a run
 * whose process died is taken up again only after this whole time.
 */
const JOB_MARGIN_MS = 10_000;

const cancelSchema = z.object({ jobId: z.string().min(1).max(64) });
const sharedQuery = z.object({ id: z.string().refine(isShareId) });
const pictureQuery = z.object({
  messageId: z.string().min(1).max(100),
  expires: z.string().min(1).max(20),
  signature: z.string().min(1).max(100),
});

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

/**
 * Picture messages (#15): `POST /room/createImage`, `GET /room/checkJobStatus`,
 * `POST /room/cancelImage`, a room's finished pictures (`GET /room/pictures`) and sharing one
 * (`POST /room/sharePicture`), only with a picture engine (`model-routes.ts` answers 5007
 * otherwise); the `picture` job that draws them; `GET /room/picture`, which serves a picture
 * to whoever holds a link signed for its room's owner; and `GET /room/sharedPicture`, which
 * serves a shared picture to anyone holding its random id (a deleted or unshared picture's
 * id finds nothing).
 */
export function pictureRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const routes = new Hono<ApiEnv>();
  const pictures = picturesOf(config);

  // Not through `contract`: it answers bytes, not an envelope, to an <img> that sends no token.
  routes.get('/picture', async (c) => {
    const parsed = pictureQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    const { messageId, expires, signature } = parsed.data;
    if (!pictures.links.verify(messageId, expires, signature)) return c.text('Forbidden', 403);
    const row = await db
      .selectFrom('messages')
      .select('image_file')
      .where('id', '=', messageId)
      .executeTakeFirst();
    if (!row?.image_file) return c.text('Not found', 404);
    return pictures.store.serve(row.image_file, c.req.raw, {
      contentType: 'image/webp',
      cacheControl: 'private, max-age=3600',
    });
  });

  // Public: the id is the secret (144 random bits), held only while the owner shares it.
  routes.get('/sharedPicture', async (c) => {
    const parsed = sharedQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    // Not while moderators hide its mate, nor once the mate is deleted.
    const row = await db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .innerJoin('mates', 'mates.id', 'rooms.mate_id')
      .select('messages.image_file')
      .where('messages.image_share_id', '=', parsed.data.id)
      .where('mates.hidden_at', 'is', null)
      .where('mates.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row?.image_file) return c.text('Not found', 404);
    return pictures.store.serve(row.image_file, c.req.raw, {
      contentType: 'image/webp',
      // Short: an unshared picture stops being served by caches within minutes.
      cacheControl: 'public, max-age=300',
      headers: { 'x-content-type-options': 'nosniff' },
    });
  });

  const engine = deps.images;
  const image = config.image;
  if (!engine || !image) return routes;

  deps.jobs.define<PicturePayload, { file: string }>(
    PICTURE_JOB,
    async (job) => {
      const { payload } = job;
      const [width, height] = payload.size.split('x').map(Number) as [number, number];
      let images;
      try {
        images = await engine.generate(
          { prompt: payload.prompt, width, height, model: payload.model, nsfw: payload.nsfw },
          {
            signal: job.signal,
            onProgress: (fraction) => void job.progress(Math.min(fraction, 0.99)).catch(() => {}),
          },
        );
      } catch (error) {
        if (!isProviderError<ImageFailure>(error, 'image')) throw error;
        deps.log.warn(`picture ${job.id}: ${error.message}`);
        throw new Error(PICTURE_FAILURES[error.failure], { cause: error });
      }
      const sharp = await loadSharp();
      const webp = await sharp(images[0]!.data).webp({ quality: 90 }).toBuffer();
      let file: string;
      try {
        file = await pictures.store.put(webp);
      } catch (error) {
        if (!isStorageUnavailable(error) && !isOutOfSpace(error)) throw error;
        // The bucket's address and error go to the log, not to the user.
        deps.log.warn({ err: error }, `picture ${job.id}: ${(error as Error).message}`);
        throw new Error(isOutOfSpace(error) ? OUT_OF_SPACE : PICTURE_NOT_STORED, { cause: error });
      }
      let recorded;
      try {
        recorded = await db
          .updateTable('messages')
          .set({ image_file: file })
          .where('id', '=', payload.messageId)
          .executeTakeFirst();
      } catch (error) {
        if (!isOutOfSpace(error)) throw error;
        // A full disk is said as such, not in the database's words; the file would be orphaned.
        deps.log.warn({ err: error }, `picture ${job.id}: ${(error as Error).message}`);
        await pictures.store.remove(file).catch((removing: unknown) => {
          deps.log.warn({ err: removing }, `picture ${job.id}: ${file} not removed`);
        });
        throw new Error(OUT_OF_SPACE, { cause: error });
      }
      // The message was deleted while it was drawn: keep nothing.
      if (Number(recorded.numUpdatedRows) === 0) await pictures.store.remove(file);
      return { file };
    },
    {
      concurrency: image.concurrency,
      timeoutMs: image.timeoutMs + JOB_MARGIN_MS,
      onFinallyFailed: async (job, trx) => {
        await refundGoldCoins(trx, job.payload.userId, job.payload.cost, {
          reason: 'refund: picture failed',
          reference: { type: 'message', id: job.payload.messageId },
        });
      },
    },
  );

  /** The picture message of `jobId` in one of `userId`'s rooms, or a 4004. */
  const ownPicture = async (userId: string, jobId: string): Promise<MessageTable> => {
    const row = await db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .selectAll('messages')
      .where('messages.image_job_id', '=', jobId)
      .where('rooms.user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('Picture');
    return row;
  };

  const statusOf = async (row: MessageTable): Promise<JobStatus> => {
    const jobs = await jobsOf(db, [row]);
    const job = jobs.get(row.image_job_id!);
    const picture = imageOf(row, job, pictures.links)!;
    return {
      jobId: picture.jobId,
      state: picture.state,
      progress: picture.progress,
      images: picture.url ? [picture.url] : [],
      error: picture.error,
      createdAt: job?.created_at ?? row.created_at,
      messageId: row.id,
    };
  };

  const api = contract(routes, '/room');

  api.post('/room/createImage', createImageSchema, async (c, read): Promise<ImageJobRef> => {
    const user = requireUser(c);
    const input = await read();
    const room = await findOwnRoom(db, user.id, input.roomId);
    if (!(await canContinue(db, user, room)))
      throw notice(textsFor(c.get('language'))('room.readOnly'));
    if (input.model && input.model !== image.model) {
      const listed = await engine.listModels().catch((error: unknown) => {
        if (!isProviderError(error, 'image')) throw error;
        c.get('log').warn(`image models: ${error.message}`);
        throw notice(en.notices.pictures.engineDown);
      });
      if (!listed.some((model) => model.id === input.model))
        throw badInput('model: not one of the picture models of /aigc/models.');
    }
    await consume(deps.limits.createImage, user.id);
    const mate = await db
      .selectFrom('mates')
      .select('nsfw')
      .where('id', '=', room.mate_id)
      .executeTakeFirstOrThrow();
    const size = input.size ?? '768x1024';
    // The job's id is written with the message: a process that dies before the job is stored
    // leaves a message whose job does not exist, which start-up recovery fails and refunds.
    const jobId = randomUUID();
    const message = await db.transaction().execute(async (trx) => {
      const added = await appendMessage(trx, room.id, {
        role: 'mate',
        content: '',
        status: 'complete',
        picture: { prompt: input.prompt, size, ...(input.model ? { model: input.model } : {}) },
      });
      await trx
        .updateTable('messages')
        .set({ image_job_id: jobId })
        .where('id', '=', added.id)
        .execute();
      // Charged for the message it pays for; a refusal rolls the message back.
      const spent = await spendGoldCoins(trx, user.id, image.cost, {
        reason: 'picture',
        reference: { type: 'message', id: added.id },
      });
      if (spent === 'capped') throw notice(DAILY_CAP_REACHED);
      if (spent === 'short') throw notice(NOT_ENOUGH_COINS);
      return added;
    });
    const payload: PicturePayload = {
      messageId: message.id,
      userId: user.id,
      prompt: input.prompt,
      size,
      ...(input.model ? { model: input.model } : {}),
      nsfw: toBool(user.nfsw) && toBool(mate.nsfw),
      cost: image.cost,
    };
    try {
      await deps.jobs.enqueue(PICTURE_JOB, payload, { id: jobId });
    } catch (error) {
      c.get('log').error(`picture for ${message.id} not queued: ${(error as Error).message}`);
      await db.transaction().execute(async (trx) => {
        await refundGoldCoins(trx, user.id, image.cost, {
          reason: 'refund: picture not queued',
          reference: { type: 'message', id: message.id },
        });
        await trx
          .updateTable('messages')
          .set({ status: 'error', image_error: NOT_QUEUED })
          .where('id', '=', message.id)
          .execute();
      });
      throw notice(NOT_QUEUED);
    }
    return { jobId, messageId: message.id };
  });

  api.get('/room/checkJobStatus', jobStatusSchema, async (c, read) => {
    const user = requireUser(c);
    return statusOf(await ownPicture(user.id, (await read()).jobId));
  });

  api.post('/room/cancelImage', cancelSchema, async (c, read) => {
    const user = requireUser(c);
    const row = await ownPicture(user.id, (await read()).jobId);
    await cancelPicture(deps, row);
    return statusOf(row);
  });

  /** The picture messages of a room that were drawn: succeeded, file kept, newest first. */
  const finishedPictures = (roomId: string) =>
    db
      .selectFrom('messages')
      .innerJoin('jobs', 'jobs.id', 'messages.image_job_id')
      .where('messages.room_id', '=', roomId)
      .where('messages.image_file', 'is not', null)
      .where('messages.image_error', 'is', null)
      .where('jobs.state', '=', 'succeeded');

  api.get('/room/pictures', roomPicturesSchema, async (c, read): Promise<Paged<RoomPicture>> => {
    const user = requireUser(c);
    const input = await read();
    const room = await findOwnRoom(db, user.id, input.roomId);
    const pages = paging(input);
    const [total, rows] = await Promise.all([
      finishedPictures(room.id)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      finishedPictures(room.id)
        .selectAll('messages')
        .orderBy('messages.position', 'desc')
        .limit(pages.pageSize)
        .offset(pages.offset)
        .execute(),
    ]);
    return toPage(
      rows.map((row) => toRoomPicture(row, pictures.links)),
      pages,
      total.n,
    );
  });

  api.post('/room/sharePicture', sharePictureSchema, async (c, read): Promise<RoomPicture> => {
    const user = requireUser(c);
    const input = await read();
    const row = await db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .selectAll('messages')
      .innerJoin('mates', 'mates.id', 'rooms.mate_id')
      .where('messages.id', '=', input.messageId)
      .where('rooms.user_id', '=', user.id)
      // A picture of a mate moderators hid (or its creator deleted) cannot be shared.
      .where('mates.hidden_at', 'is', null)
      .where('mates.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound('Picture');
    if (row.image_prompt === null) throw badInput('messageId: is not a picture');
    const finished = await finishedPictures(row.room_id)
      .where('messages.id', '=', row.id)
      .select('messages.id')
      .executeTakeFirst();
    if (!finished) throw notice(NOT_FINISHED);
    // Sharing twice keeps the first link (only a row without one takes a new id); unsharing
    // forgets the id, so the old link finds nothing at once.
    await db
      .updateTable('messages')
      .set({ image_share_id: input.shared ? newShareId() : null })
      .where('id', '=', row.id)
      .$if(input.shared, (q) => q.where('image_share_id', 'is', null))
      .execute();
    const updated = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirst();
    // Deleted meanwhile.
    if (!updated?.image_file) throw notFound('Picture');
    return toRoomPicture(updated, pictures.links);
  });

  return routes;
}

/**
 * Cancels a picture message's job when it is queued or running and gives its coins back
 * (once: only the call that cancelled it refunds); `false` when it had already ended.
 */
export async function cancelPicture(deps: Deps, row: MessageTable): Promise<boolean> {
  if (!row.image_job_id) return false;
  if (!(await deps.jobs.cancel(row.image_job_id))) return false;
  const stored = await deps.db
    .selectFrom('jobs')
    .select('payload')
    .where('id', '=', row.image_job_id)
    .executeTakeFirst();
  // JSON text on SQLite, an object on PostgreSQL.
  const raw: unknown = stored?.payload;
  const data = (typeof raw === 'string' ? JSON.parse(raw) : raw) as PicturePayload | undefined;
  if (data)
    await deps.db.transaction().execute((trx) =>
      refundGoldCoins(trx, data.userId, data.cost, {
        reason: 'refund: picture cancelled',
        reference: { type: 'message', id: data.messageId },
      }),
    );
  return true;
}
