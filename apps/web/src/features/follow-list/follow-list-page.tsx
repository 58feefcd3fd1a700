import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FollowedCreator } from '@mates/api-client';
import {
  Avatar,
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  Heading,
  Link,
  Stack,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { followedCreatorsQuery } from './api/follow-list-queries';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { Loading, LoadError } from '../../components/states';
import { useFollowCreator } from '../../hooks/use-follow-creator';

/** `/follow-list`: the creators the user follows, each with an unfollow button. */
export function FollowListPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('follow.title')}>
      <SignInGate>
        <FollowList />
      </SignInGate>
    </Page>
  );
}

function FollowList() {
  const { t } = useTranslation();
  const { client } = useServices();
  const creators = useQuery(followedCreatorsQuery(client));
  if (creators.isPending) return <Loading />;
  if (creators.isError) return <LoadError query={creators} />;
  if (creators.data.length === 0)
    return (
      <EmptyState
        title={t('follow.empty')}
        description={t('follow.emptyText')}
        action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
      />
    );
  return (
    <Stack as="ul" gap={3} aria-label={t('follow.list')}>
      {creators.data.map((creator) => (
        <CreatorItem key={creator.creatorId} creator={creator} />
      ))}
    </Stack>
  );
}

function CreatorItem({ creator }: { creator: FollowedCreator }) {
  const { t } = useTranslation();
  const unfollow = useFollowCreator(creator.creatorId);
  return (
    <Card as="li" aria-label={creator.name}>
      <Flex gap={3} align="center" justify="between" wrap>
        <Flex gap={3} align="center">
          <Avatar src={creator.avatar} name={creator.name} decorative />
          <Stack gap={1}>
            <Heading as="h2" size={1}>
              <Link href={href('/creator', { creatorId: creator.creatorId })}>{creator.name}</Link>
            </Heading>
            <Text tone="muted" size={2}>
              {t('common.followers', { count: creator.followers })} ·{' '}
              {t('follow.mates', { count: creator.mates })}
            </Text>
          </Stack>
        </Flex>
        <Button
          size="small"
          variant="soft"
          aria-busy={unfollow.isPending}
          aria-label={t('follow.unfollow', { name: creator.name })}
          onClick={() => unfollow.mutate()}
        >
          {t('follow.unfollowShort')}
        </Button>
      </Flex>
      {creator.bio && <Text tone="muted">{creator.bio}</Text>}
    </Card>
  );
}
