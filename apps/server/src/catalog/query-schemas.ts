import { z } from 'zod';
import { GENDERS } from '@mates/api-client';

/** `tags=a,b` → `['a', 'b']`. */
export const tagList = z
  .string()
  .max(1000)
  .transform((value) =>
    value
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  )
  .optional();

/** Gender filter. */
export const gender = z.enum(GENDERS).optional();

/** Paging: 1-based page, at most 50 a page. */
export const pageFields = {
  page: z.coerce.number().int().min(1).max(10_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(50).optional(),
};

/** An id in a query. */
export const id = z.string().min(1).max(100);
