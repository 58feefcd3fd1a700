import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type {
  Gender,
  Mate,
  MateCounters,
  MateFeedbackReason,
  MateModeration,
  MateSummary,
  MateVisibility,
  OwnMateSummary,
  Paged,
} from '@mates/api-client';
import type { Database, MateTable, UserTable } from '../db/schema';
import { fromJson, toBool } from '../db/dialect';

/** A mate row with its creator's public fields. */
export type MateRow = MateTable & { creator_name: string; creator_avatar: string | null };

/** Mates joined with their creators: the base of every mate query. */
export function matesWithCreators(db: Kysely<Database>) {
  return db
    .selectFrom('mates')
    .innerJoin('users as creator', 'creator.id', 'mates.creator_id')
    .selectAll('mates')
    .select(['creator.nickname as creator_name', 'creator.avatar as creator_avatar']);
}

type Joined = Database & { creator: UserTable };

// Every column of a mate's row: a column added to `MateTable` and not here (or here and not
// there) fails to compile.
const MATE_COLUMN_SET = {
  id: 1,
  creator_id: 1,
  name: 1,
  tagline: 1,
  description: 1,
  personality: 1,
  scenario: 1,
  first_mes: 1,
  mes_example: 1,
  creator_notes: 1,
  system_prompt: 1,
  alternate_greetings: 1,
  tags: 1,
  extensions: 1,
  card_extra: 1,
  card_spec: 1,
  avatar: 1,
  gender: 1,
  nsfw: 1,
  visibility: 1,
  voice: 1,
  deleted_at: 1,
  hidden_at: 1,
  hidden_reason: 1,
  hidden_note: 1,
  hidden_by: 1,
  chats_count: 1,
  messages_count: 1,
  favorites_count: 1,
  reviews_count: 1,
  rating_sum: 1,
  created_at: 1,
  updated_at: 1,
} satisfies Record<keyof MateTable, 1>;
const MATE_COLUMNS = Object.keys(MATE_COLUMN_SET) as (keyof MateTable)[];

/** A mate's row as a prompt reads it: without `card_extra` (see {@link PROMPT_MATE_COLUMNS}). */
export type PromptMate = Omit<MateTable, 'card_extra'>;

/**
 * A mate's columns but `card_extra`: the card's other fields (an imported card's lorebook, up to
 * 12 MB) are read and parsed once for a mate as saved, apart (`cards/card-extras.ts`), not with
 * the row at every send.
 */
export const PROMPT_MATE_COLUMNS = MATE_COLUMNS.filter(
  (column): column is keyof PromptMate => column !== 'card_extra',
);

/**
 * A mate's whole row (or its `columns`) selected beside another table's, each column named
 * `prefix` + its name so that none meets the other table's (a prefix that none of the other's
 * columns starts with): read back with {@link mateFromRow}.
 */
export function mateColumnsAs(prefix: string, columns: readonly string[] = MATE_COLUMNS) {
  return columns.map((column) => sql.ref<unknown>(`mates.${column}`).as(`${prefix}${column}`));
}

/**
 * Splits a row read with {@link mateColumnsAs}: the mate (`undefined` when the join found
 * none) and the other columns.
 */
export function mateFromRow(
  row: Record<string, unknown>,
  prefix: string,
): { picked: MateTable | undefined; others: Record<string, unknown> } {
  const others: Record<string, unknown> = {};
  const mate: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(prefix)) mate[key.slice(prefix.length)] = value;
    else others[key] = value;
  }
  return { picked: mate.id == null ? undefined : (mate as unknown as MateTable), others };
}

/**
 * Only what `viewer` may see: public mates (and their own private ones when `includeOwn`),
 * and not-safe-for-work mates only for viewers who turned that on.
 */
export function visibleTo<O>(
  query: SelectQueryBuilder<Joined, 'mates' | 'creator', O>,
  viewer: UserTable | null,
  options: { includeOwn?: boolean } = {},
): SelectQueryBuilder<Joined, 'mates' | 'creator', O> {
  query = query.where('mates.deleted_at', 'is', null);
  const result = query.where((eb) =>
    options.includeOwn && viewer
      ? eb.or([eb('mates.visibility', '=', 'public'), eb('mates.creator_id', '=', viewer.id)])
      : eb('mates.visibility', '=', 'public'),
  );
  const unhidden = result.where((eb) => hiddenOnlyForOwner(eb, viewer, options)); // #14
  return viewer && toBool(viewer.nfsw) ? unhidden : unhidden.where('mates.nsfw', '=', false);
}

/** A mate moderators hid is seen by its creator only (with `includeOwn`), by no one else. */
function hiddenOnlyForOwner(
  eb: ExpressionBuilder<Joined, 'mates' | 'creator'>,
  viewer: UserTable | null,
  options: { includeOwn?: boolean },
) {
  return options.includeOwn && viewer
    ? eb.or([eb('mates.hidden_at', 'is', null), eb('mates.creator_id', '=', viewer.id)])
    : eb('mates.hidden_at', 'is', null);
}

/**
 * Who looks at a mate, for what only some may see: its creator and administrators learn why
 * moderators hid it.
 */
export interface MateViewer {
  /** The viewer's user id, or `null` for a visitor. */
  userId: string | null;
  /** Whether the viewer moderates reports (`ADMIN_EMAILS`). */
  isAdmin: boolean;
}

/** Why moderators hid the mate, or `null` when they did not. */
export function moderationOf(row: MateTable): MateModeration | null {
  if (!row.hidden_at) return null;
  return {
    reason: (row.hidden_reason ?? 'other') as MateFeedbackReason,
    note: row.hidden_note,
    hiddenAt: row.hidden_at,
  };
}

function counters(row: MateTable): MateCounters {
  return {
    chats: row.chats_count,
    messages: row.messages_count,
    favorites: row.favorites_count,
    reviews: row.reviews_count,
    rating:
      row.reviews_count > 0 ? Math.round((row.rating_sum / row.reviews_count) * 10) / 10 : null,
  };
}

/** The list form of a mate. */
export function toMateSummary(row: MateRow): MateSummary {
  return {
    mateId: row.id,
    name: row.name,
    avatar: row.avatar,
    tagline: row.tagline,
    tags: fromJson<string[]>(row.tags, []),
    gender: row.gender as Gender,
    nsfw: toBool(row.nsfw),
    creator: { creatorId: row.creator_id, name: row.creator_name, avatar: row.creator_avatar },
    counters: counters(row),
  };
}

/**
 * The whole mate, as `viewer` sees it: `moderation` is told to the mate's creator and to
 * administrators only (everyone else is never shown a hidden mate at all).
 */
export function toMate(row: MateRow, viewer: MateViewer | null = null): Mate {
  const mayKnowWhyHidden = Boolean(
    viewer && (viewer.isAdmin || (viewer.userId !== null && viewer.userId === row.creator_id)),
  );
  return {
    ...toMateSummary(row),
    description: row.description,
    personality: row.personality,
    scenario: row.scenario,
    first_mes: row.first_mes,
    mes_example: row.mes_example,
    creator_notes: row.creator_notes,
    system_prompt: row.system_prompt,
    alternate_greetings: fromJson<string[]>(row.alternate_greetings, []),
    visibility: row.visibility as MateVisibility,
    voice: row.voice,
    moderation: mayKnowWhyHidden ? moderationOf(row) : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** One page of a list of `total` items, as the API answers it. */
export function toPage<T>(
  list: T[],
  { page, pageSize, offset }: ReturnType<typeof paging>,
  total: number | string,
): Paged<T> {
  const count = Number(total);
  return { list, page, pageSize, total: count, hasMore: offset + list.length < count };
}

/** Reads page and page size from a query: 1-based, at most 50 per page. */
export function paging(input: { page?: number; pageSize?: number }) {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 20;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** A mate as "Your mates" lists it for its owner. */
export function toOwnMateSummary(row: MateRow): OwnMateSummary {
  return {
    ...toMateSummary(row),
    visibility: row.visibility as MateVisibility,
    moderation: moderationOf(row),
    updatedAt: row.updated_at,
  };
}
