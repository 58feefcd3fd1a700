import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiClient, TagGroup } from '@mates/api-client';
import { useServices } from '../lib/services-context';
import { serverKeys } from '../lib/query-keys';
import { translateTagGroups } from '../i18n/tag-names';

/** The tag groups, as the server labels them (translated by the caller); they seldom change. */
const tagGroupsQuery = (client: ApiClient, language: string) =>
  queryOptions({
    queryKey: serverKeys.tags(language),
    queryFn: ({ signal }) => client.extra.tagsMap({ signal }),
    staleTime: Infinity,
  });

/**
 * The tag groups, and each tag key's label, in the user's language: the app's own words for
 * the tags it knows (by key), the server's label for any other.
 */
export function useTagGroups() {
  const { client } = useServices();
  const { t, i18n } = useTranslation();
  const select = useCallback((data: TagGroup[]) => translateTagGroups(data, t), [t]);
  const groups = useQuery({ ...tagGroupsQuery(client, i18n.language), select });
  const labels: Record<string, string> = Object.fromEntries(
    (groups.data ?? []).flatMap((group) => group.tags.map((tag) => [tag.key, tag.label])),
  );
  return { groups, labels };
}

/** Each tag key's label in the user's language. */
export function useTagLabels(): Record<string, string> {
  return useTagGroups().labels;
}
