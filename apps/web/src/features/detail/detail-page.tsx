import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/store-react';
import type { MateExtraInfo } from '@mates/api-client';
import {
  Avatar,
  Button,
  Card,
  ChatBubble,
  Container,
  EmptyState,
  Flex,
  Heading,
  Link,
  Stack,
  Tag,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { mateDetailQuery } from '../../lib/queries';
import { mateExtraQuery } from './api/detail-queries';
import { href, routeTo } from '../../lib/paths';
import { useSignedIn, useSignedInAction } from '../../components/sign-in-gate';
import { Loading, LoadError, WayOn } from '../../components/states';
import { useFavorites } from '../../hooks/use-favorites';
import { useFollowCreator } from '../../hooks/use-follow-creator';
import { useTagLabels } from '../../hooks/use-tag-labels';
import { fillMacros, useReaderName } from '../../components/card-text';
import { Reviews } from './reviews';
import { ReportMate } from './report-mate';
import { HiddenNotice, OwnMate } from './owner-notices';
import { CreateGroupDialog } from '../../components/group/create-group-dialog';

/** `/detail?mateId=…`: the mate's card, greeting, tags, creator with follow, reviews, "Chat". */
export function DetailPage() {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const [params] = useSearchParams();
  const mateId = params.get('mateId') ?? '';
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const uuid = useSelector(store, (state) => state.context.userInfo.uuid);
  const you = useReaderName();
  const signedInAction = useSignedInAction();
  const tagLabels = useTagLabels();
  const { toggle } = useFavorites();
  const mate = useQuery({ ...mateDetailQuery(client, mateId), enabled: mateId !== '' });
  const extra = useQuery({
    ...mateExtraQuery(client, mateId, signedIn),
    enabled: mateId !== '',
  });
  const startChat = useMutation({
    mutationFn: () => client.room.createRoom({ mateId }),
    onSuccess: (room) => navigate(routeTo('/chat-detail', { roomId: room.roomId })),
  });
  const [grouping, setGrouping] = useState(false);

  if (!mateId)
    return (
      <EmptyState
        title={t('detail.missing')}
        description={t('detail.missingText')}
        action={<WayOn to={['/']} />}
      />
    );
  if (mate.isPending) return <Loading />;
  if (mate.isError) return <LoadError query={mate} title={t('detail.error')} />;
  const data = mate.data;
  const favorite = extra.data?.isFavorite ?? false;
  const own = signedIn && data.creator.creatorId === uuid;
  return (
    <Container>
      <Stack gap={5}>
        <Flex gap={4} align="center" wrap>
          <Avatar src={data.avatar} name={data.name} size="large" />
          <Stack gap={2}>
            <Heading as="h1" size={3}>
              {data.name}
            </Heading>
            <Text tone="muted">{data.tagline}</Text>
            <Flex gap={1} wrap>
              {data.tags.map((tag) => (
                <Tag key={tag}>{tagLabels[tag] ?? tag}</Tag>
              ))}
            </Flex>
          </Stack>
        </Flex>
        {data.moderation && (
          <HiddenNotice moderation={data.moderation} mateId={data.mateId} own={own} />
        )}
        {own && <OwnMate mate={data} />}
        <Flex gap={2} wrap>
          <Button
            onClick={() => signedInAction(() => startChat.mutate())}
            aria-busy={startChat.isPending}
          >
            {t('detail.chat', { name: data.name })}
          </Button>
          <Button
            variant="soft"
            aria-haspopup="dialog"
            onClick={() => signedInAction(() => setGrouping(true))}
          >
            {t('group.addToGroup')}
          </Button>
          <Button variant="soft" aria-pressed={favorite} onClick={() => toggle(mateId)}>
            {favorite ? t('detail.unfavorite') : t('detail.favorite')}
          </Button>
          <ReportMate mateId={mateId} name={data.name} />
        </Flex>
        <CreateGroupDialog open={grouping} onClose={() => setGrouping(false)} initial={[data]} />
        <Stack gap={2}>
          <Heading as="h2" size={2}>
            {t('detail.about')}
          </Heading>
          <Text>{fillMacros(data.description, data.name, you)}</Text>
          {data.scenario && (
            <Text tone="muted">
              {t('format.label', { label: t('detail.scenario') })}{' '}
              {fillMacros(data.scenario, data.name, you)}
            </Text>
          )}
        </Stack>
        <Stack gap={2}>
          <Heading as="h2" size={2}>
            {t('detail.greeting')}
          </Heading>
          <ChatBubble
            role="mate"
            speaker={data.name}
            content={fillMacros(data.first_mes, data.name, you)}
            labels={{
              partial: t('chat.partial'),
              error: t('chat.failed'),
              edited: t('chat.edited'),
              speaker: (name) => t('chat.says', { name }),
            }}
          />
        </Stack>
        {/* Read apart from the mate: while it loads or when it fails, the mate stays shown. */}
        {extra.isPending && <Loading />}
        {extra.isError && <LoadError query={extra} />}
        {extra.data && <CreatorCard extra={extra.data} own={own} />}
        {extra.data && <Reviews mate={data} extra={extra.data} />}
      </Stack>
    </Container>
  );
}

/**
 * Who made the mate, linking to their page, with a follow toggle (a visitor is asked to sign
 * in; one's own mate has none).
 */
function CreatorCard({ extra, own }: { extra: MateExtraInfo; own: boolean }) {
  const { t } = useTranslation();
  const signedInAction = useSignedInAction();
  const { creator } = extra;
  const follow = useFollowCreator(creator.creatorId);
  return (
    <Card as="section" aria-labelledby="detail-creator">
      <Heading as="h2" size={2} id="detail-creator">
        {t('detail.creator')}
      </Heading>
      <Flex gap={3} align="center" justify="between" wrap>
        <Flex gap={3} align="center">
          <Avatar src={creator.avatar} name={creator.name} />
          <Stack gap={1}>
            <Text weight="bold">
              <Link
                href={href('/creator', { creatorId: creator.creatorId })}
                aria-label={t('detail.creatorLink', { name: creator.name })}
              >
                {creator.name}
              </Link>
            </Text>
            <Text tone="muted" size={2}>
              {t('common.followers', { count: creator.followers })} ·{' '}
              {t('follow.mates', { count: creator.mates })}
            </Text>
          </Stack>
        </Flex>
        {!own && (
          <Button
            variant={extra.isFollowingCreator ? 'soft' : 'solid'}
            size="small"
            aria-pressed={extra.isFollowingCreator}
            aria-busy={follow.isPending}
            onClick={() => signedInAction(() => follow.mutate())}
          >
            {extra.isFollowingCreator
              ? t('detail.unfollow', { name: creator.name })
              : t('detail.follow', { name: creator.name })}
          </Button>
        )}
      </Flex>
      {creator.bio && <Text tone="muted">{creator.bio}</Text>}
    </Card>
  );
}
