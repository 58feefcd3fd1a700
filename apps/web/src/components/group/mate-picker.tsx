import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MateSummary } from '@mates/api-client';
import { Avatar, Button, Flex, SearchField, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { useDebounced } from '../../hooks/use-debounced';

/** How many mates each list offers. */
const OFFERED = 12;

/** Props of {@link MatePicker}. */
export interface MatePickerProps {
  /** The mates chosen so far (pressed in the lists). */
  chosen: readonly MateSummary[];
  /** Adds a mate, or takes a chosen one out. */
  onToggle: (mate: MateSummary) => void;
  /** No more can be chosen: the others are offered disabled. */
  full: boolean;
  /** Mates not offered at all (already in the group). */
  exclude?: readonly string[];
}

/**
 * Mates a person may chat with, to choose for a group: their own (public or private, never a
 * draft) and the public ones, popular ones until words are typed, then those the words find.
 * Each is a toggle button, named by the mate.
 */
export function MatePicker({ chosen, onToggle, full, exclude = [] }: MatePickerProps) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [text, setText] = useState('');
  const keyword = useDebounced(text.trim(), 250);
  const own = useQuery({
    queryKey: ['groupPicker', 'own'],
    queryFn: ({ signal }) => client.mate.myMates({ page: 1, pageSize: 50 }, { signal }),
  });
  const others = useQuery({
    queryKey: ['groupPicker', 'public', keyword],
    queryFn: ({ signal }) =>
      keyword
        ? client.mate.search({ keyword, page: 1, pageSize: OFFERED }, { signal })
        : client.mate.recommend({ page: 1, pageSize: OFFERED }, { signal }),
  });
  const words = keyword.toLocaleLowerCase();
  const skip = new Set(exclude);
  const yours = (own.data?.list ?? []).filter(
    (mate) =>
      mate.visibility !== 'draft' &&
      !skip.has(mate.mateId) &&
      (!words || mate.name.toLocaleLowerCase().includes(words)),
  );
  const yourIds = new Set(yours.map((mate) => mate.mateId));
  const publicOnes = (others.data?.list ?? []).filter(
    (mate) => !skip.has(mate.mateId) && !yourIds.has(mate.mateId),
  );
  const section = (title: string, mates: MateSummary[], busy: boolean) => (
    <Stack gap={1}>
      <Text weight="medium" size={2}>
        {title}
      </Text>
      <Stack as="ul" gap={1} aria-label={title} aria-busy={busy}>
        {mates.map((mate) => {
          const pressed = chosen.some((one) => one.mateId === mate.mateId);
          return (
            <li key={mate.mateId}>
              <Button
                variant={pressed ? 'soft' : 'ghost'}
                size="small"
                aria-pressed={pressed}
                disabled={full && !pressed}
                onClick={() => onToggle(mate)}
              >
                <Flex gap={2} align="center">
                  <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
                  {mate.name}
                </Flex>
              </Button>
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
  return (
    <Stack gap={3}>
      <SearchField
        value={text}
        onValueChange={setText}
        labels={{ search: t('group.find'), placeholder: t('group.findPlaceholder'), hotWords: '' }}
      />
      {yours.length > 0 && section(t('group.yours'), yours, own.isFetching)}
      {publicOnes.length > 0 &&
        section(keyword ? t('group.found') : t('group.popular'), publicOnes, others.isFetching)}
      {others.isSuccess && own.isSuccess && yours.length + publicOnes.length === 0 && (
        <Text tone="muted" size={2}>
          {t('group.noneFound')}
        </Text>
      )}
    </Stack>
  );
}
