import { randomUUID } from 'node:crypto';
import type { CardPreview, CardSpec, Mate, MateDraft } from '@mates/api-client';
import type { MateTable, UserTable } from '../db/schema';
import { forbidden } from '../domain/errors';
import { loadSharp } from '../images/load-sharp';
import { portraitSvg, renderPortrait } from '../seed/portraits';
import type { StudioDeps } from '../catalog/catalog-deps';
import { toMate } from '../catalog/mate-rows';
import { findOwnMate, insertMates, mateRow } from '../catalog/mate-repository';
import { checkMateQuota, withinMateQuota } from '../catalog/own-mate-service';
import { readPortrait, removePortrait, writePortrait } from '../catalog/portrait-files';
import { portraitFromCardPicture } from '../catalog/portrait-upload';
import { tagKeys, tagLabels } from '../catalog/tag-repository';
import { toCardV2, toCardV3 } from './character-card';
import { cardPng, mateCardData } from './export-card';
import { droppedTags, mateFromCard, readUpload, unusedParts, type CardUpload } from './import-card';
import { fitCard } from './fit-card';

/**
 * `/mate/importCard`: a Character Card (V1, V2 or V3; JSON or PNG) becomes a private mate of
 * the caller's (a draft when it has no greeting). The card is checked in full first, and the
 * user's mate quota; a PNG's picture becomes the portrait by the upload rules (decoded, 512×768
 * WebP, no metadata), or a drawn one when it cannot be used. The portrait is stored under a
 * random name and removed again when the mate cannot be saved.
 */
export async function importCard(
  deps: StudioDeps,
  user: UserTable,
  upload: CardUpload,
): Promise<Mate> {
  const { data, ours, portrait, spec, tags } = readUpload(upload, await tagKeys(deps.db));
  await checkMateQuota(deps.db, user.id);
  const id = randomUUID();
  const picture = portrait && (await portraitFromCardPicture(portrait));
  const avatar = picture
    ? await writePortrait(deps.media, picture, '.webp')
    : await renderPortrait(deps.media, randomUUID(), 'notionists', data.name);
  const mate = { ...mateFromCard(data, ours), card_spec: spec, id, creator_id: user.id, avatar };
  try {
    await withinMateQuota(deps.db, deps.dialect, user.id, (trx) =>
      insertMates(trx, [{ ...mate, tags }]),
    );
  } catch (error) {
    await removePortrait(deps.media, avatar);
    throw error;
  }
  return toMate(await mateRow(deps.db, id));
}

/**
 * `/mate/previewCard`: what importing `upload` would create, without creating anything (no
 * mate, no portrait file): the same reading and checks as {@link importCard}, so a card it
 * would refuse is refused here with the same error.
 */
export async function previewCard(deps: StudioDeps, upload: CardUpload): Promise<CardPreview> {
  const known = await tagKeys(deps.db);
  const { data, ours, portrait, sourceSpec, tags } = readUpload(upload, known);
  const {
    extensions: _extensions,
    card_extra: _extra,
    visibility: _visibility,
    ...fields
  } = mateFromCard(data, ours);
  const draft: MateDraft = { ...fields, tags };
  return {
    draft,
    spec: sourceSpec,
    creator: data.creator,
    // The same test as the import: a picture it would replace by a drawn one does not count.
    portraitFromCard: Boolean(portrait && (await portraitFromCardPicture(portrait))),
    unused: [...fitCard(data).notes, ...unusedParts(data)],
    droppedTags: droppedTags(data, known),
  };
}

/** A card file: its name, type and bytes (base64). */
export interface CardFile {
  filename: string;
  mimeType: string;
  data: string;
}

/**
 * `/mate/exportCard`: the card of one of the caller's mates as it is now, as JSON (V2 or V3:
 * the spec asked for, else the one it came in) or as its portrait carrying the card. A mate
 * moderators hid is refused: a card imported again would be a copy moderators never hid.
 */
export async function exportCard(
  deps: StudioDeps,
  user: UserTable,
  input: { mateId: string; format: 'json' | 'png'; spec?: CardSpec },
): Promise<CardFile> {
  const row = await findOwnMate(deps.db, user.id, input.mateId);
  if (row.hidden_at) throw forbidden('notices.mates.hiddenExport');
  const data = mateCardData(row, user.nickname, await tagLabels(deps.db));
  if (input.format === 'json') {
    const card = (input.spec ?? row.card_spec) === 'v3' ? toCardV3(data) : toCardV2(data);
    return {
      filename: `${row.name}.json`,
      mimeType: 'application/json',
      data: Buffer.from(JSON.stringify(card, null, 2)).toString('base64'),
    };
  }
  const png = cardPng(await portraitPng(deps, row), data);
  return { filename: `${row.name}.png`, mimeType: 'image/png', data: png.toString('base64') };
}

// resvg is loaded at the first export: a server that exports no card never holds it.
const rasterize = async (svg: string) => {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { fitTo: { mode: 'width', value: 512 } }).render().asPng();
};

// The portrait as PNG: as stored when it is one, converted from WebP or SVG, and drawn
// afresh when the mate's portrait is not a file of ours or its file has gone missing.
async function portraitPng(
  deps: StudioDeps,
  row: Pick<MateTable, 'avatar' | 'name'>,
): Promise<Buffer> {
  const stored = await readPortrait(deps.media, row.avatar);
  if (stored && row.avatar.endsWith('.png')) return stored;
  // An uploaded portrait (WebP): the card goes into a PNG of the same picture.
  if (stored && row.avatar.endsWith('.webp')) return (await loadSharp())(stored).png().toBuffer();
  if (stored && row.avatar.endsWith('.svg')) return rasterize(stored.toString('utf8'));
  return rasterize(await portraitSvg('notionists', row.name));
}
