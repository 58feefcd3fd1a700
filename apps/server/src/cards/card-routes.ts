import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { Resvg } from '@resvg/resvg-js';
import type { CardFile, Gender } from '@mates/api-client';
import { badInput, notFound, ok } from '../http/envelope';
import { body, query } from '../http/validate';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { fromJson, toBool } from '../db/dialect';
import type { MateTable } from '../db/schema';
import { matesWithCreators, toMate } from '../catalog/mate-rows';
import { insertMates } from '../catalog/new-mate';
import { renderPortrait, MEDIA_URL_PREFIX } from '../seed/portraits';
import {
  CardFormatError,
  parseCard,
  toCardV2,
  PNG_CARD_KEYWORD,
  type CardData,
} from './character-card';
import { PngFormatError, readPngText, writePngText } from './png-text';

const MODELED = [
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'alternate_greetings',
  'extensions',
] as const;
const GENDERS: Gender[] = ['female', 'male', 'nonbinary'];
const MAX_PNG_BASE64 = Math.ceil((8 * 1024 * 1024 * 4) / 3);

/** What Mates writes under `extensions.mates` so its own fields survive a round trip. */
interface MatesExtension {
  gender?: string;
  tagline?: string;
  nsfw?: boolean;
}

function readCardFromPng(base64: string): unknown {
  let text: string | undefined;
  try {
    text = readPngText(Buffer.from(base64, 'base64'), PNG_CARD_KEYWORD);
  } catch (error) {
    if (error instanceof PngFormatError) throw badInput(`png: ${error.message}`);
    throw error;
  }
  if (!text) throw badInput('png: this image holds no character card (no "chara" text chunk).');
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw badInput('png: the character card in this image is not readable JSON.');
  }
}

function firstSentence(textValue: string): string {
  const sentence =
    /^[^.!?\n]{1,160}[.!?]?/.exec(textValue.replace(/\{\{char\}\}/g, 'They').trim())?.[0] ?? '';
  return sentence || 'An imported character.';
}

/** `/mate/importCard` and `/mate/exportCard`: Character Card V2, JSON or PNG. */
export function cardRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const routes = new Hono<ApiEnv>();

  routes.post('/importCard', async (c) => {
    const user = requireUser(c);
    const input = await body(
      c,
      z.object({
        card: z.unknown().optional(),
        png: z.string().max(MAX_PNG_BASE64, 'must be at most 8 MB').optional(),
      }),
    );
    if ((input.card === undefined) === (input.png === undefined))
      throw badInput('Send either "card" (JSON) or "png" (base64), not both.');
    let data: CardData;
    try {
      data = parseCard(input.png !== undefined ? readCardFromPng(input.png) : input.card);
    } catch (error) {
      if (error instanceof CardFormatError) throw badInput(error.message);
      throw error;
    }
    const ours = (data.extensions.mates ?? {}) as MatesExtension;
    const knownTags = await db.selectFrom('tags').select('key').execute();
    const tagKeys = [
      ...new Set(data.tags.map((tag) => tag.trim().toLowerCase().replace(/\s+/g, '-'))),
    ].filter((key) => knownTags.some((t) => t.key === key));
    const id = randomUUID();
    let avatar: string;
    if (input.png !== undefined) {
      await fs.mkdir(path.join(config.mediaDir, 'avatars'), { recursive: true });
      await fs.writeFile(
        path.join(config.mediaDir, 'avatars', `${id}.png`),
        Buffer.from(input.png, 'base64'),
      );
      avatar = `${MEDIA_URL_PREFIX}/avatars/${id}.png`;
    } else {
      avatar = await renderPortrait(config.mediaDir, id, 'notionists', data.name);
    }
    const extra = Object.fromEntries(
      Object.entries(data).filter(([key]) => !(MODELED as readonly string[]).includes(key)),
    );
    await insertMates(db, [
      {
        id,
        creator_id: user.id,
        name: data.name,
        tagline: (ours.tagline ?? firstSentence(data.description)).slice(0, 200),
        description: data.description,
        personality: data.personality,
        scenario: data.scenario,
        first_mes: data.first_mes,
        mes_example: data.mes_example,
        creator_notes: data.creator_notes,
        system_prompt: data.system_prompt,
        alternate_greetings: data.alternate_greetings,
        tags: tagKeys,
        extensions: data.extensions,
        card_extra: extra,
        avatar,
        gender: GENDERS.includes(ours.gender as Gender) ? (ours.gender as Gender) : 'nonbinary',
        nsfw: ours.nsfw === true || data.tags.some((tag) => tag.toLowerCase() === 'nsfw'),
        visibility: 'private',
      },
    ]);
    const saved = await matesWithCreators(db).where('mates.id', '=', id).executeTakeFirstOrThrow();
    return ok(c, toMate(saved));
  });

  routes.get('/exportCard', async (c) => {
    const user = requireUser(c);
    const input = query(
      c,
      z.object({ mateId: z.string().min(1), format: z.enum(['json', 'png']).default('json') }),
    );
    const row = await db
      .selectFrom('mates')
      .selectAll()
      .where('id', '=', input.mateId)
      .where('creator_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw notFound('Mate');
    const extra = fromJson<Record<string, unknown>>(row.card_extra, {});
    const extensions = fromJson<Record<string, unknown>>(row.extensions, {});
    const card = toCardV2({
      ...extra,
      name: row.name,
      description: row.description,
      personality: row.personality,
      scenario: row.scenario,
      first_mes: row.first_mes,
      mes_example: row.mes_example,
      creator_notes: row.creator_notes,
      system_prompt: row.system_prompt,
      post_history_instructions: String(extra.post_history_instructions ?? ''),
      alternate_greetings: fromJson<string[]>(row.alternate_greetings, []),
      tags: (extra.tags as string[] | undefined) ?? fromJson<string[]>(row.tags, []),
      creator: String(extra.creator || user.nickname),
      character_version: String(extra.character_version ?? ''),
      extensions: {
        ...extensions,
        mates: {
          ...(extensions.mates as object),
          gender: row.gender,
          tagline: row.tagline,
          nsfw: toBool(row.nsfw),
        },
      },
    });
    const json = JSON.stringify(card, null, 2);
    if (input.format === 'json') {
      return ok<CardFile>(c, {
        filename: `${row.name}.json`,
        mimeType: 'application/json',
        data: Buffer.from(json).toString('base64'),
      });
    }
    const png = writePngText(
      await portraitPng(config.mediaDir, row),
      PNG_CARD_KEYWORD,
      Buffer.from(json).toString('base64'),
    );
    return ok<CardFile>(c, {
      filename: `${row.name}.png`,
      mimeType: 'image/png',
      data: png.toString('base64'),
    });
  });
  return routes;
}

// The portrait as PNG: as stored when it is one, rasterized when it is an SVG.
async function portraitPng(
  mediaDir: string,
  row: Pick<MateTable, 'id' | 'avatar' | 'name'>,
): Promise<Buffer> {
  const local = row.avatar.startsWith(`${MEDIA_URL_PREFIX}/`)
    ? path.join(mediaDir, row.avatar.slice(MEDIA_URL_PREFIX.length))
    : null;
  if (local?.endsWith('.png')) return fs.readFile(local);
  const svgPath = local?.endsWith('.svg')
    ? local
    : path.join(
        mediaDir,
        (await renderPortrait(mediaDir, row.id, 'notionists', row.name)).slice(
          MEDIA_URL_PREFIX.length,
        ),
      );
  const svg = await fs.readFile(svgPath, 'utf8');
  return new Resvg(svg, { fitTo: { mode: 'width', value: 512 } }).render().asPng();
}
