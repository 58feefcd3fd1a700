import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/store-react';
import { AUTH_MODE, isLoggedIn } from '@mates/state-machines';
import {
  Avatar,
  Button,
  ChatBubble,
  Container,
  EmptyState,
  Flex,
  Heading,
  Rating,
  Spinner,
  Stack,
  Tag,
  Text,
} from '@mates/ui';
import { useServices } from '../../app/services-context';

/** `/detail?mateId=…`: the mate's card, greeting, tags, creator, reviews, and "Chat". */
export function DetailPage() {
  const { client, store, popup } = useServices();
  const [params] = useSearchParams();
  const mateId = params.get('mateId') ?? '';
  const navigate = useNavigate();
  const signedIn = useSelector(store, (state) => isLoggedIn(state.context));
  const mate = useQuery({
    queryKey: ['mate', mateId],
    queryFn: ({ signal }) => client.mate.getMateDetail({ mateId }, { signal }),
    enabled: mateId !== '',
  });
  const extra = useQuery({
    queryKey: ['mateExtra', mateId, signedIn],
    queryFn: ({ signal }) => client.mate.mateExtraInfo({ mateId }, { signal }),
    enabled: mateId !== '',
  });
  const startChat = useMutation({
    mutationFn: () => client.room.createRoom({ mateId }),
    onSuccess: (room) => navigate(`/chat-detail?roomId=${encodeURIComponent(room.roomId)}`),
  });

  if (!mateId)
    return <EmptyState title="No mate chosen" description="Open a mate from the discover page." />;
  if (mate.isPending) return <Spinner label="Loading mate" />;
  if (mate.isError)
    return (
      <EmptyState
        tone="error"
        title="This mate could not be loaded"
        description={mate.error.message}
        action={<Button onClick={() => mate.refetch()}>Try again</Button>}
      />
    );
  const data = mate.data;
  const chat = () =>
    signedIn ? startChat.mutate() : popup.send({ type: 'OPEN', mode: AUTH_MODE.signIn });
  return (
    <Container>
      <Stack gap={5}>
        <Flex gap={4} align="center" wrap>
          <Avatar src={data.avatar} name={data.name} size="large" />
          <Stack gap={1}>
            <Heading as="h1" size={3}>
              {data.name}
            </Heading>
            <Text tone="muted">{data.tagline}</Text>
            <Flex gap={1} wrap>
              {data.tags.map((tag) => (
                <Tag key={tag}>{tag}</Tag>
              ))}
            </Flex>
          </Stack>
        </Flex>
        <Flex gap={2} wrap>
          <Button onClick={chat} aria-busy={startChat.isPending}>
            Chat with {data.name}
          </Button>
        </Flex>
        <Text>
          {data.description.replace(/\{\{char\}\}/gi, data.name).replace(/\{\{user\}\}/gi, 'you')}
        </Text>
        <Stack gap={2}>
          <Heading as="h2" size={1}>
            Greeting
          </Heading>
          <ChatBubble
            role="mate"
            speaker={data.name}
            content={data.first_mes
              .replace(/\{\{char\}\}/gi, data.name)
              .replace(/\{\{user\}\}/gi, 'you')}
          />
        </Stack>
        {extra.data && (
          <Stack gap={3}>
            <Heading as="h2" size={1}>
              Reviews
            </Heading>
            {extra.data.reviewSummary.count === 0 ? (
              <Text tone="muted">No reviews yet.</Text>
            ) : (
              <Rating
                label="Average rating"
                value={Math.round(extra.data.reviewSummary.average ?? 0)}
              />
            )}
            {extra.data.recentReviews.map((review) => (
              <Stack key={review.reviewId} gap={1}>
                <Text weight="bold">{review.author.name}</Text>
                <Rating label={`${review.author.name}'s rating`} value={review.rating} />
                {review.content && <Text tone="muted">{review.content}</Text>}
              </Stack>
            ))}
            <Text tone="muted" size={2}>
              By {extra.data.creator.name} · {extra.data.creator.followers} followers
            </Text>
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
