import { useQuery } from '@tanstack/react-query';
import { useServices } from '../app/services-context';

/** The tag groups (labels in the user's language), and each tag key's label. */
export function useTagGroups() {
  const { client, i18n } = useServices();
  const groups = useQuery({
    queryKey: ['tagsMap', i18n.language],
    queryFn: ({ signal }) => client.extra.tagsMap({ signal }),
    staleTime: Infinity,
  });
  const labels: Record<string, string> = Object.fromEntries(
    (groups.data ?? []).flatMap((group) => group.tags.map((tag) => [tag.key, tag.label])),
  );
  return { groups, labels };
}

/** Each tag key's label in the user's language. */
export function useTagLabels(): Record<string, string> {
  return useTagGroups().labels;
}
