import type { MateSummary, Paged, SearchSort } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { visibilityClass } from './catalog-cache';
import type { CatalogDeps, ReadyAnswer } from './catalog-deps';
import { matchingMates, type ListingFilters } from './listing-repository';
import { paging, toPage } from './mate-rows';
import { logSearch } from './hot-word-repository';
import { searchWords, typedSpelling } from './search-words';

/** What `/mate/search` is asked: words, filters, an order and a page. */
export interface SearchInput extends ListingFilters {
  keyword: string;
  sort: SearchSort;
}

/**
 * `/mate/search`: one page of the mates that match the words of `keyword` (name, tagline,
 * description, tags, the creator's name) and the filters. Answers are shared; the folded words are the key, so
 * "Café" and "cafe" share one. A keyword without a word ("😀") finds nothing. A signed-in
 * search that finds something, on its first page, feeds the hot words.
 */
export async function searchMates(
  deps: CatalogDeps,
  input: SearchInput,
  viewer: UserTable | null,
): Promise<ReadyAnswer<Paged<MateSummary>>> {
  const words = searchWords(input.keyword);
  // Typed text with no word in it (emoji, punctuation) matches nothing; only an empty keyword
  // lists every mate (the filters alone).
  if (!words.length && input.keyword.trim()) return deps.ready(toPage([], paging(input), 0));
  const key = `search|${visibilityClass(viewer)}|${JSON.stringify({ ...input, keyword: words })}`;
  const answer = await deps.cache.get(['mates'], key, async () =>
    deps.ready(await matchingMates(deps.db, deps.dialect, input, words, viewer)),
  );
  if (words.length && (input.page ?? 1) === 1 && viewer && answer.value.total > 0)
    await logSearch(deps.db, viewer.id, words, typedSpelling(input.keyword, words));
  return answer;
}
