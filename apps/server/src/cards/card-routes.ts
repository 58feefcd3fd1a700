import { Hono } from 'hono';
import { z } from 'zod';
import { CARD_FORMATS, CARD_SPECS, type ImportCardPayload } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from '../accounts/rate-limits';
import type { StudioDeps } from '../catalog/catalog-deps';
import { exportCard, importCard, previewCard } from './card-service';

const MAX_PNG_BASE64 = Math.ceil((8 * 1024 * 1024 * 4) / 3);

// Either a JSON card or a PNG one: the parsed input is narrowed to the contract's union.
const importPayload = z
  .object({
    card: z.unknown().optional(),
    png: z.string().max(MAX_PNG_BASE64, 'must be at most 8 MB').optional(),
  })
  .transform(({ card, png }, ctx): ImportCardPayload => {
    if (card !== undefined && png === undefined) return { card };
    if (png !== undefined && card === undefined) return { png };
    ctx.addIssue({
      code: 'custom',
      message: 'Send either "card" (JSON) or "png" (base64), not both.',
    });
    return z.NEVER;
  });

const exportQuery = z.object({
  mateId: z.string().min(1),
  format: z.enum(CARD_FORMATS).default(CARD_FORMATS[0]),
  spec: z.enum(CARD_SPECS).optional(),
});

/**
 * `/mate/importCard`, `/mate/previewCard` (what an import would create) and
 * `/mate/exportCard`: Character Card V1, V2 or V3 in, V2 or V3 out, JSON or PNG.
 */
export function cardRoutes(deps: Deps, studio: StudioDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');

  api.post('/mate/importCard', importPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.importCard, user.id);
    return importCard(studio, user, await read());
  });
  api.post('/mate/previewCard', importPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.previewCard, user.id);
    return previewCard(studio, await read());
  });
  api.get('/mate/exportCard', exportQuery, async (c, read) => {
    const user = requireUser(c);
    return exportCard(studio, user, await read());
  });
  return routes;
}
