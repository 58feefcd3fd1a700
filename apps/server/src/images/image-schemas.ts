import { z } from 'zod';
import type { ImageSize } from '@mates/api-client';
import { pageFields } from '../catalog/query-schemas';

/** The sizes pictures are drawn at (`CreateImagePayload.size`). */
export const IMAGE_SIZES = [
  '512x512',
  '768x1024',
  '1024x768',
  '1024x1024',
] as const satisfies readonly ImageSize[];

/** `POST /room/createImage`'s payload. */
export const createImageSchema = z.object({
  roomId: z.string().min(1).max(64),
  prompt: z.string().trim().min(1).max(1000),
  model: z.string().min(1).max(500).optional(),
  size: z.enum(IMAGE_SIZES).optional(),
});

/** `GET /room/checkJobStatus`'s query. */
export const jobStatusSchema = z.object({ jobId: z.string().min(1).max(64) });

/** `GET /room/pictures`'s query: a room and a page (at most 50 pictures). */
export const roomPicturesSchema = z.object({
  roomId: z.string().min(1).max(64),
  ...pageFields,
});

/** `POST /room/sharePicture`'s payload. */
export const sharePictureSchema = z.object({
  messageId: z.string().min(1).max(100),
  shared: z.boolean(),
});
