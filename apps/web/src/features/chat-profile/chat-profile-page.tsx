import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError, type Mate, type Paged, type RoomPicture } from '@mates/api-client';
import {
  Avatar,
  Button,
  Card,
  Container,
  EmptyState,
  Flex,
  Heading,
  Link,
  Stack,
  Tag,
  Text,
  TextField,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { roomKeys } from '../../lib/query-keys';
import { chatProfileKeys, roomProfileQuery } from './api/chat-profile-queries';
import { href } from '../../lib/paths';
import { fillMacros, useReaderName } from '../../components/card-text';
import { FullPicture } from '../../components/full-picture';
import { BackLink } from '../../components/back-link';
import { SignInGate } from '../../components/sign-in-gate';
import { Loading, LoadError } from '../../components/states';
import { usePaged } from '../../hooks/use-paged';
import { useTagLabels } from '../../hooks/use-tag-labels';
import { useVoiceCatalog, VoiceProvider } from '../../components/voice/voice-player';
import { SampleButton } from '../../components/voice/voice-parts';
import { sampleText } from '../../components/voice/voice-field';
import { errorText } from '../../i18n/error-text';

/** Pictures a page of the gallery holds. */
export const PICTURES_PAGE_SIZE = 20;

// The server answers 5007 "Pictures are not set up on this server." without an image engine.
const NOT_SET_UP_CODE = 5007;

/**
 * `/chat-profile?roomId=…`: the mate of a chat, its card, and the pictures drawn in that chat,
 * each viewable full size and shareable through a public link. Sections stack, so more about the
 * chat (its voice) can join them.
 */
function ChatProfileScreen() {
  return (
    <SignInGate>
      <ChatProfile />
    </SignInGate>
  );
}

function ChatProfile() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [params] = useSearchParams();
  const roomId = params.get('roomId') ?? '';
  // Only the mate is wanted: the newest message page is kept as small as the server allows.
  const room = useQuery({ ...roomProfileQuery(client, roomId), enabled: roomId !== '' });

  if (!roomId)
    return (
      <EmptyState title={t('chatProfile.missing')} description={t('chatProfile.missingText')} />
    );
  if (room.isPending) return <Loading />;
  if (room.isError)
    return <LoadError query={room} title={t('chatProfile.error')} wayOn={['/recent-chats', '/']} />;
  const { mate, readOnly } = room.data;
  return (
    <Container>
      <Stack gap={5}>
        <BackLink to="/chat-detail" query={{ roomId }} label={t('chatProfile.back')} />
        <MateCard mate={mate} linkToPage={!readOnly} />
        <MateVoice mate={mate} />
        <Pictures roomId={roomId} />
      </Stack>
    </Container>
  );
}

/**
 * The mate's voice: its name (or that it speaks in the default voice) and a sample of it.
 * Absent where the server has no voice.
 */
function MateVoice({ mate }: { mate: Mate }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const catalog = useVoiceCatalog();
  const reader = useReaderName();
  const headingId = useId();
  if (!catalog) return null;
  const voice = catalog.voices.find((candidate) => candidate.voiceId === mate.voice);
  const text = sampleText(fillMacros(mate.first_mes, mate.name, reader), t('voice.previewLine'));
  return (
    <Card as="section" aria-labelledby={headingId}>
      <Stack gap={2}>
        <Heading as="h2" size={3} id={headingId}>
          {t('voice.section')}
        </Heading>
        <Text>{voice ? t('voice.speaksAs', { name: voice.name }) : t('voice.speaksDefault')}</Text>
        <SampleButton
          sampleKey={`profile:${mate.mateId}`}
          load={() =>
            client.voice
              .textToAudio({ text, ...(voice ? { voice: voice.voiceId } : {}) })
              .then((clip) => clip.audioUrl)
          }
          play={t('voice.sample')}
          stop={t('voice.stopSample')}
          failed={(message) => t('voice.previewFailed', { message })}
        />
      </Stack>
    </Card>
  );
}

/** The mate's card: portrait, name, tagline, description, tags and creator. */
function MateCard({ mate, linkToPage }: { mate: Mate; linkToPage: boolean }) {
  const { t } = useTranslation();
  const tagLabels = useTagLabels();
  const you = useReaderName();
  return (
    <Card as="section" aria-label={t('chatProfile.card', { name: mate.name })}>
      <Flex gap={4} align="center" wrap>
        <Avatar src={mate.avatar} name={mate.name} size="large" />
        <Stack gap={2}>
          <Heading as="h1" size={3}>
            {mate.name}
          </Heading>
          {mate.tagline && <Text tone="muted">{mate.tagline}</Text>}
          {mate.tags.length > 0 && (
            <Flex gap={1} wrap>
              {mate.tags.map((tag) => (
                <Tag key={tag}>{tagLabels[tag] ?? tag}</Tag>
              ))}
            </Flex>
          )}
        </Stack>
      </Flex>
      {mate.description && <Text>{fillMacros(mate.description, mate.name, you)}</Text>}
      <Flex gap={3} align="center" wrap>
        <Text size={2} tone="muted">
          {t('chatProfile.by')}{' '}
          <Link
            href={href('/creator', { creatorId: mate.creator.creatorId })}
            aria-label={t('detail.creatorLink', { name: mate.creator.name })}
          >
            {mate.creator.name}
          </Link>
        </Text>
        {linkToPage && (
          <Link href={href('/detail', { mateId: mate.mateId })}>
            {t('chatProfile.mate', { name: mate.name })}
          </Link>
        )}
      </Flex>
    </Card>
  );
}

/** The room's finished pictures, newest first, a page at a time; a note without an engine. */
function Pictures({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const { client } = useServices();
  // Quiet: the section says itself that pictures are not set up, once, without a notice too.
  const { query, items, more } = usePaged(chatProfileKeys.pictures(roomId), (page, signal) =>
    client.room.pictures({ roomId, page, pageSize: PICTURES_PAGE_SIZE }, { signal, quiet: true }),
  );
  const notSetUp = ApiError.isInstance(query.error) && query.error.code === NOT_SET_UP_CODE;
  return (
    <Stack as="section" gap={3} aria-labelledby="chat-profile-pictures">
      <Heading as="h2" size={2} id="chat-profile-pictures">
        {t('chatProfile.pictures')}
      </Heading>
      {notSetUp ? (
        <Text tone="muted">{t('chatProfile.notSetUp')}</Text>
      ) : query.isError ? (
        <LoadError query={query} title={t('chatProfile.picturesError')} />
      ) : query.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <EmptyState title={t('chatProfile.empty')} description={t('chatProfile.emptyText')} />
      ) : (
        <>
          <ul
            aria-label={t('chatProfile.pictures')}
            style={{
              listStyle: 'none',
              margin: 0,
              padding: 0,
              display: 'grid',
              gap: 16,
              gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
            }}
          >
            {items.map((picture) => (
              <GalleryPicture key={picture.messageId} picture={picture} />
            ))}
          </ul>
          {more.has && (
            <Flex justify="center">
              <Button variant="soft" aria-busy={more.loading} onClick={more.load}>
                {t('chatProfile.more')}
              </Button>
            </Flex>
          )}
        </>
      )}
    </Stack>
  );
}

/** One picture: a button to see it full size, and its sharing. */
function GalleryPicture({ picture }: { picture: RoomPicture }) {
  const { t } = useTranslation();
  const [full, setFull] = useState(false);
  const caption = useId();
  return (
    <Card as="li" style={{ padding: 8 }}>
      <figure
        aria-labelledby={caption}
        style={{ margin: 0, display: 'flex', flexDirection: 'column', gap: 8 }}
      >
        <button
          type="button"
          aria-label={t('chatProfile.view', { prompt: picture.prompt })}
          onClick={() => setFull(true)}
          // The browser's own focus ring stays: only the button's look is taken away.
          style={{
            padding: 0,
            border: 0,
            background: 'none',
            cursor: 'zoom-in',
            borderRadius: 8,
            display: 'block',
            width: '100%',
          }}
        >
          <img
            src={picture.url}
            alt=""
            style={{
              width: '100%',
              aspectRatio: '3 / 4',
              objectFit: 'cover',
              borderRadius: 8,
              display: 'block',
            }}
          />
        </button>
        <figcaption id={caption}>
          <Text size={1} tone="muted">
            {picture.prompt}
          </Text>
        </figcaption>
      </figure>
      <Sharing picture={picture} describedBy={caption} />
      <FullPicture open={full} onOpenChange={setFull} url={picture.url} prompt={picture.prompt} />
    </Card>
  );
}

/** "Share", then the public link with "Copy link" and "Stop sharing". */
function Sharing({ picture, describedBy }: { picture: RoomPicture; describedBy: string }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const share = useMutation({
    mutationFn: (shared: boolean) =>
      client.room.sharePicture({ messageId: picture.messageId, shared }),
    onSuccess: (next) => {
      setCopied(null);
      queries.setQueryData<InfiniteData<Paged<RoomPicture>>>(
        chatProfileKeys.pictures(picture.roomId),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              list: page.list.map((item) =>
                item.messageId === next.messageId ? { ...item, sharedUrl: next.sharedUrl } : item,
              ),
            })),
          },
      );
      // The chat shows the picture's message too: it reads the change when next shown.
      void queries.invalidateQueries({ queryKey: roomKeys.messages(picture.roomId) });
    },
  });
  const copy = (url: string) =>
    navigator.clipboard.writeText(url).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  // The server answers a path on its own address; people copy the whole address.
  const sharedUrl = picture.sharedUrl && new URL(picture.sharedUrl, window.location.href).href;
  return (
    <Stack gap={2}>
      {sharedUrl ? (
        <>
          <TextField
            label={t('chatProfile.link')}
            value={sharedUrl}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
          <Text size={1} tone="muted">
            {t('chatProfile.linkNote')}
          </Text>
          <Flex gap={2} wrap>
            <Button
              size="small"
              variant="soft"
              aria-describedby={describedBy}
              onClick={() => void copy(sharedUrl)}
            >
              {t('chatProfile.copy')}
            </Button>
            <Button
              size="small"
              variant="ghost"
              aria-busy={share.isPending}
              aria-describedby={describedBy}
              onClick={() => share.mutate(false)}
            >
              {share.isPending ? t('chatProfile.stopping') : t('chatProfile.stop')}
            </Button>
          </Flex>
        </>
      ) : (
        <Flex gap={2} wrap>
          <Button
            size="small"
            variant="soft"
            aria-busy={share.isPending}
            aria-describedby={describedBy}
            onClick={() => share.mutate(true)}
          >
            {share.isPending ? t('chatProfile.sharing') : t('chatProfile.share')}
          </Button>
        </Flex>
      )}
      <Text size={1} role="status" tone={copied === 'failed' ? 'danger' : 'muted'}>
        {copied === 'yes' && t('chatProfile.copied')}
        {copied === 'failed' && t('chatProfile.copyFailed')}
      </Text>
      {share.isError && (
        <Text size={1} tone="danger" role="alert">
          {t('chatProfile.shareFailed', { message: errorText(share.error, t) })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The screen with its own voice player: the player (and XState's runtime) loads with the
 * screens that speak, never with the first screen; leaving the screen silences it.
 */
export function ChatProfilePage() {
  return (
    <VoiceProvider>
      <ChatProfileScreen />
    </VoiceProvider>
  );
}
