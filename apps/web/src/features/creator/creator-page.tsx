import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { CreatorProfile } from '@mates/api-client';
import {
  Avatar,
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  Heading,
  Stack,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { creatorInfoQuery, creatorPageKeys } from './api/creator-queries';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { MateList } from '../../components/mate-list';
import { useSignedIn, useSignedInAction } from '../../components/sign-in-gate';
import { isNotFound, Loading, LoadError } from '../../components/states';
import { useFollowCreator } from '../../hooks/use-follow-creator';
import { usePaged } from '../../hooks/use-paged';

/** `/creator?creatorId=…`: who a creator is, a follow toggle, and their public mates. */
export function CreatorPage() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [params] = useSearchParams();
  const creatorId = params.get('creatorId') ?? '';
  const signedIn = useSignedIn();
  const info = useQuery({
    ...creatorInfoQuery(client, creatorId, signedIn),
    enabled: creatorId !== '',
  });

  if (!creatorId || isNotFound(info.error))
    return (
      <EmptyState
        title={t('creator.missing')}
        description={t('creator.missingText')}
        action={<ButtonLink href={href('/')}>{t('common.home')}</ButtonLink>}
      />
    );
  if (info.isPending) return <Loading />;
  if (info.isError) return <LoadError query={info} title={t('creator.error')} />;
  const creator = info.data;
  return (
    <Page title={creator.name} actions={<FollowOrOwn creator={creator} />}>
      <Figures creator={creator} />
      <CreatorMates creator={creator} />
    </Page>
  );
}

/** The follow toggle for someone else's page; a way to one's own mates on one's own. */
function FollowOrOwn({ creator }: { creator: CreatorProfile }) {
  const { t } = useTranslation();
  const signedInAction = useSignedInAction();
  const follow = useFollowCreator(creator.creatorId);
  if (creator.isSelf)
    return (
      <ButtonLink variant="soft" href={href('/mine')}>
        {t('creator.yourMates')}
      </ButtonLink>
    );
  return (
    <Button
      variant={creator.isFollowing ? 'soft' : 'solid'}
      aria-pressed={creator.isFollowing}
      aria-busy={follow.isPending}
      onClick={() => signedInAction(() => follow.mutate())}
    >
      {creator.isFollowing ? t('creator.following') : t('creator.follow')}
    </Button>
  );
}

/** Avatar, bio and the creator's figures. */
function Figures({ creator }: { creator: CreatorProfile }) {
  const { t, i18n } = useTranslation();
  const joined = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
    new Date(creator.joinedAt),
  );
  return (
    <Card as="section" aria-label={t('creator.figures', { name: creator.name })}>
      <Flex gap={4} align="center" wrap>
        <Avatar src={creator.avatar} name={creator.name} size="large" decorative />
        <Stack gap={1}>
          {creator.bio && <Text>{creator.bio}</Text>}
          <Text tone="muted" size={2}>
            {t('common.followers', { count: creator.followers })} ·{' '}
            {t('creator.publicMates', { count: creator.mates })}
          </Text>
          <Text tone="muted" size={2}>
            {t('creator.joined', { date: joined })}
          </Text>
        </Stack>
      </Flex>
      {creator.isSelf && <Text tone="muted">{t('creator.own')}</Text>}
    </Card>
  );
}

/** The creator's public mates, newest first, a page at a time. */
function CreatorMates({ creator }: { creator: CreatorProfile }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { creatorId, name } = creator;
  const { query, items, more } = usePaged(creatorPageKeys.mates(creatorId), (page, signal) =>
    client.mate.creatorMates({ creatorId, page }, { signal }),
  );
  const title = t('creator.mates', { name });
  return (
    <Stack gap={3}>
      <Heading as="h2" size={2}>
        {title}
      </Heading>
      {query.isError ? (
        <LoadError query={query} />
      ) : !query.isPending && items.length === 0 ? (
        <EmptyState
          title={t('creator.empty')}
          description={
            creator.isSelf ? t('creator.ownEmptyText') : t('creator.emptyText', { name })
          }
        />
      ) : (
        <MateList
          label={title}
          mates={items}
          loading={query.isPending}
          more={more}
          headingLevel={3}
        />
      )}
    </Stack>
  );
}
