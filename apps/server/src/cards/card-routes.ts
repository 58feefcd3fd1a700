import { Hono } from 'hono';
import { z } from 'zod';
import { loadSharp } from '../images/load-sharp';
import { CARD_FORMATS, CARD_SPECS, type ImportCardPayload } from '@mates/api-client';
import { CODE, EnvelopeError, notFound } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from '../accounts/rate-limits';
import type { MateTable } from '../db/schema';
import { matesWithCreators, toMate } from '../catalog/mate-rows';
import { portraitSvg } from '../seed/portraits';
import { readPortrait } from '../catalog/portrait-files';
import { mediaOf } from '../media/media-of';
import type { MediaStore } from '../media/media-store';
import { toCardV2, toCardV3 } from './character-card';
import { importCard, previewCard } from './import-card';
import { cardPng, mateCardData } from './export-card';

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
export function cardRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const media = mediaOf(config);
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');

  api.post('/mate/importCard', importPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.importCard, user.id);
    const input = await read();
    const id = await importCard(db, media, user.id, input, deps.dialect);
    const saved = await matesWithCreators(db).where('mates.id', '=', id).executeTakeFirstOrThrow();
    return toMate(saved);
  });

  // The same reading as importCard, and nothing written: no mate, no portrait file.
  api.post('/mate/previewCard', importPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.previewCard, user.id);
    return previewCard(db, await read());
  });

  api.get('/mate/exportCard', exportQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const row = await db
      .selectFrom('mates')
      .selectAll()
      .where('id', '=', input.mateId)
      .where('creator_id', '=', user.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound('Mate');
    // A card imported again would be a copy moderators never hid: hiding is no way out.
    if (row.hidden_at)
      throw new EnvelopeError(
        CODE.forbidden,
        'Moderators hid this mate, so its card cannot be exported. Their reason is shown on its page.',
      );
    const data = await mateCardData(db, row, user.nickname);
    if (input.format === 'json') {
      const card = (input.spec ?? row.card_spec) === 'v3' ? toCardV3(data) : toCardV2(data);
      return {
        filename: `${row.name}.json`,
        mimeType: 'application/json',
        data: Buffer.from(JSON.stringify(card, null, 2)).toString('base64'),
      };
    }
    const png = cardPng(await portraitPng(media, row), data);
    return { filename: `${row.name}.png`, mimeType: 'image/png', data: png.toString('base64') };
  });
  return routes;
}

// resvg is loaded at the first export: a server that exports no card never holds it.
const rasterize = async (svg: string) => {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { fitTo: { mode: 'width', value: 512 } }).render().asPng();
};

// The portrait as PNG: as stored when it is one, converted from WebP or SVG, and drawn
// afresh when the mate's portrait is not a file of ours or its file has gone missing.
async function portraitPng(
  media: MediaStore,
  row: Pick<MateTable, 'avatar' | 'name'>,
): Promise<Buffer> {
  const stored = await readPortrait(media, row.avatar);
  if (stored && row.avatar.endsWith('.png')) return stored;
  // An uploaded portrait (WebP): the card goes into a PNG of the same picture.
  if (stored && row.avatar.endsWith('.webp')) return (await loadSharp())(stored).png().toBuffer();
  if (stored && row.avatar.endsWith('.svg')) return rasterize(stored.toString('utf8'));
  return rasterize(await portraitSvg('notionists', row.name));
}
