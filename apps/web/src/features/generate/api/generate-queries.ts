import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';

/**
 * The query keys only the studio uses (the mate being edited, the caller's mates and their
 * benefits are shared: lib/query-keys).
 */
export const generateKeys = {
  /** The portraits offered for a seed. */
  portraitChoices: (seed: string) => ['portraitChoices', seed] as const,
};

/** The portraits offered for a seed: the same seed always offers the same ones. */
export const portraitChoicesQuery = (client: ApiClient, seed: string) =>
  queryOptions({
    queryKey: generateKeys.portraitChoices(seed),
    queryFn: ({ signal }) => client.mate.portraitChoices({ seed }, { signal }),
    staleTime: Infinity,
  });
