import { LRUCache } from 'lru-cache';
import { fromJson } from '../db/dialect';
import type { MateTable } from '../db/schema';
import { loreSize, readLorebook, type Lorebook } from './lorebook';

/**
 * What a prompt takes from a mate's card beyond its columns, in `card_extra` (the card's fields
 * Mates has no column for): its lorebook and its post-history instructions.
 */
export interface CardExtras {
  lore: Lorebook | null;
  /** `''` for none. */
  instructions: string;
}

const NONE: CardExtras = { lore: null, instructions: '' };

/** The {@link CardExtras} of a card's other fields (`card_extra`, as stored or parsed). */
export function readCardExtras(extra: unknown): CardExtras {
  // Not parsed when it has neither: an imported card's other fields may be long.
  if (
    typeof extra === 'string' &&
    !extra.includes('"character_book"') &&
    !extra.includes('"post_history_instructions"')
  )
    return NONE;
  const fields = fromJson<Record<string, unknown>>(extra, {});
  const written = fields.post_history_instructions;
  return { lore: readLorebook(fields), instructions: typeof written === 'string' ? written : '' };
}

/**
 * Cards' extras as read, by mate and when it was last saved: every send of a chat takes the same,
 * and a long card's fields (up to 12 MB, an imported lorebook) are neither read from the database
 * nor parsed again until the mate is saved again. Bounded by the text they hold.
 */
const kept = new LRUCache<string, CardExtras>({
  max: 500,
  maxSize: 32_000_000,
  sizeCalculation: (extras) =>
    (extras.lore ? loreSize(extras.lore) : 1) + extras.instructions.length,
});

/**
 * The {@link CardExtras} of `mate` as saved: kept from an earlier prompt, else read by `load`
 * (its stored `card_extra`) and kept.
 */
export async function cardExtrasOf(
  mate: Pick<MateTable, 'id' | 'updated_at'>,
  load: () => Promise<unknown>,
): Promise<CardExtras> {
  const key = `${mate.id}\0${String(mate.updated_at)}`;
  const known = kept.get(key);
  if (known) return known;
  const extras = readCardExtras(await load());
  kept.set(key, extras);
  return extras;
}
