import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/store-react';
import {
  Button,
  Chip,
  Container,
  EmptyState,
  Flex,
  Heading,
  MateCard,
  MateGrid,
  Stack,
} from '@mates/ui';
import { useServices } from '../../app/services-context';
import { href } from '../../app/paths';

/** `/`: recommendations filtered by the user's chosen tags and gender, with tag chips. */
export function DiscoverPage() {
  const { client, store } = useServices();
  const selectedTags = useSelector(store, (state) => state.context.selectedTags);
  const gender = useSelector(store, (state) => state.context.selectGender);
  const tagGroups = useQuery({
    queryKey: ['tagsMap'],
    queryFn: ({ signal }) => client.extra.tagsMap({ signal }),
  });
  const mates = useQuery({
    queryKey: ['recommend', selectedTags, gender],
    queryFn: ({ signal }) =>
      client.mate.recommend(
        { tags: selectedTags, gender: gender ?? undefined, pageSize: 24 },
        { signal },
      ),
  });
  const labels = Object.fromEntries(
    (tagGroups.data ?? []).flatMap((group) => group.tags.map((tag) => [tag.key, tag.label])),
  );
  return (
    <Container>
      <Stack gap={5}>
        <Heading as="h1" size={3}>
          Discover mates
        </Heading>
        <Flex gap={2} wrap role="group" aria-label="Filter by tag">
          {(tagGroups.data?.[0]?.tags ?? []).map((tag) => (
            <Chip
              key={tag.key}
              selected={selectedTags.includes(tag.key)}
              onSelectedChange={() => store.trigger.tagToggled({ tag: tag.key })}
            >
              {tag.label}
            </Chip>
          ))}
        </Flex>
        {mates.isError ? (
          <EmptyState
            tone="error"
            title="Mates could not be loaded"
            description={mates.error.message}
            action={<Button onClick={() => mates.refetch()}>Try again</Button>}
          />
        ) : mates.data && mates.data.list.length === 0 ? (
          <EmptyState
            title="No mates match these tags"
            description="Try fewer tags."
            action={
              <Button
                variant="soft"
                onClick={() => store.trigger.selectedTagsChanged({ tags: [] })}
              >
                Clear filters
              </Button>
            }
          />
        ) : (
          <MateGrid label="Recommended mates" loading={mates.isPending}>
            {mates.data?.list.map((mate) => (
              <MateCard
                key={mate.mateId}
                mate={mate}
                href={href('/detail', { mateId: mate.mateId })}
                tagLabels={labels}
              />
            ))}
          </MateGrid>
        )}
      </Stack>
    </Container>
  );
}
