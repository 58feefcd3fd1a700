import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text';
import { useActorRef, useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import type {
  AigcModel,
  ImageSize,
  JobStatus,
  MateSummary,
  Message,
  MessageImage,
} from '@mates/api-client';
import { jobPollingMachine } from '@mates/state-machines';
import { Button, ButtonLink, Dialog, Flex, Select, Stack, Text, TextArea } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { FullPicture } from '../../components/full-picture';
import { useRefreshBenefits } from '../../hooks/use-refresh-benefits';
import { imageModelsQuery } from './api/chat-queries';
import { appendMessage, patchMessage } from './api/room-cache';
import { highlightRing, jumpTarget } from './use-jump-to-message';

/** The longest picture prompt `POST /room/createImage` takes. */
export const PICTURE_PROMPT_MAX = 1000;

const DEFAULT_SIZE: ImageSize = '768x1024';

/**
 * The image models the server offers; empty when it has none (5007 "Pictures are not set up on
 * this server.") or the list cannot be had: then no picture button is shown.
 */
export function useImageModels(): AigcModel[] {
  const { client } = useServices();
  const models = useQuery(imageModelsQuery(client));
  return (models.data ?? []).filter((model) => model.kind === 'image');
}

/** What `POST /room/createImage` is asked for. */
export interface PictureRequest {
  prompt: string;
  model?: string;
  size: ImageSize;
}

/**
 * Starts a picture: `POST /room/createImage`, then its message is added to the conversation at
 * once, queued, for {@link PictureMessage} to follow.
 */
export function useCreatePicture(roomId: string, onCreated?: () => void) {
  const { client } = useServices();
  const queries = useQueryClient();
  const refreshBenefits = useRefreshBenefits();
  return useMutation({
    mutationFn: (request: PictureRequest) =>
      client.room.createImage({
        roomId,
        prompt: request.prompt,
        size: request.size,
        ...(request.model ? { model: request.model } : {}),
      }),
    onSuccess: (ref, request) => {
      const message: Message = {
        messageId: ref.messageId,
        roomId,
        role: 'mate',
        content: '',
        status: 'complete',
        createdAt: new Date().toISOString(),
        editedAt: null,
        image: {
          jobId: ref.jobId,
          state: 'queued',
          progress: 0,
          url: null,
          prompt: request.prompt,
          size: request.size,
          model: request.model ?? null,
          error: null,
          sharedUrl: null,
        },
      };
      appendMessage(queries, roomId, message);
      refreshBenefits();
      onCreated?.();
    },
  });
}

/** The prompt the sheet starts with: the mate, a hint of their look, and the current scene. */
export function suggestPrompt(mate: MateSummary, lastMessage: Message | undefined): string {
  const scene = lastMessage?.content
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const look = mate.tagline.trim().replace(/[.!?\s]+$/, '');
  const parts = [look ? `${mate.name}, ${look}` : mate.name];
  if (scene) parts.push(`Scene: ${scene}`);
  return parts.join('. ').slice(0, PICTURE_PROMPT_MAX);
}

/** The sheet that asks for a picture: what to show, model, shape, and its cost. */
export function PictureSheet({
  open,
  onClose,
  roomId,
  mate,
  lastMessage,
  models,
}: {
  open: boolean;
  onClose: () => void;
  roomId: string;
  mate: MateSummary;
  lastMessage: Message | undefined;
  models: AigcModel[];
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('picture.title')}
      description={t('picture.description', { name: mate.name })}
      closeLabel={t('auth.close')}
    >
      {/* Mounted on each opening: it starts from the current scene. */}
      {open && (
        <PictureForm
          onClose={onClose}
          roomId={roomId}
          mate={mate}
          lastMessage={lastMessage}
          models={models}
        />
      )}
    </Dialog>
  );
}

function PictureForm({
  onClose,
  roomId,
  mate,
  lastMessage,
  models,
}: {
  onClose: () => void;
  roomId: string;
  mate: MateSummary;
  lastMessage: Message | undefined;
  models: AigcModel[];
}) {
  const { t } = useTranslation();
  const { store } = useServices();
  const goldCoins = useStoreSelector(store, (state) => state.context.userBenefits.goldCoins);
  const fallback = models.find((model) => model.isDefault) ?? models[0];
  const [prompt, setPrompt] = useState(() => suggestPrompt(mate, lastMessage));
  const [modelId, setModelId] = useState(fallback?.modelId ?? '');
  const [size, setSize] = useState<ImageSize>(DEFAULT_SIZE);
  const [touched, setTouched] = useState(false);
  // Whether "What to show" holds the user's own words (then a suggestion is offered, not put in).
  const [edited, setEdited] = useState(false);
  const [outcome, setOutcome] = useState<'used' | 'offered' | 'none' | null>(null);
  const { client } = useServices();
  const suggest = useMutation({
    mutationFn: () => client.girl.chatGetInspiration({ roomId, kind: 'picture' }),
    onSuccess: ({ suggestions }) => {
      const first = suggestions[0];
      if (first && !edited) setPrompt(first.slice(0, PICTURE_PROMPT_MAX));
      setOutcome(!first ? 'none' : edited ? 'offered' : 'used');
    },
  });
  const suggestions = suggest.data?.suggestions ?? [];
  const create = useCreatePicture(roomId, onClose);
  const refreshBenefits = useRefreshBenefits();
  // What the user has, as the server says now: the cost is weighed against it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => refreshBenefits(), []);

  const model = models.find((m) => m.modelId === modelId) ?? fallback;
  const sizes = model?.sizes?.length ? model.sizes : [DEFAULT_SIZE];
  const shape = sizes.includes(size) ? size : (sizes[0] ?? DEFAULT_SIZE);
  const cost = model?.cost ?? 0;
  const tooFew = goldCoins < cost;
  const trimmed = prompt.trim();
  const promptError =
    trimmed === ''
      ? t('picture.promptEmpty')
      : trimmed.length > PICTURE_PROMPT_MAX
        ? t('picture.promptLong')
        : undefined;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (promptError || tooFew || !model) return;
        create.mutate({ prompt: trimmed, model: model.modelId, size: shape });
      }}
    >
      <Stack gap={3}>
        <TextArea
          label={t('picture.prompt')}
          value={prompt}
          maxLength={PICTURE_PROMPT_MAX}
          rows={4}
          onChange={(event) => {
            setPrompt(event.target.value);
            setEdited(true);
          }}
          error={touched ? promptError : undefined}
        />
        <Flex gap={2} align="center" wrap>
          <Button
            type="button"
            size="small"
            variant="soft"
            aria-busy={suggest.isPending}
            onClick={() => {
              setOutcome(null);
              suggest.mutate();
            }}
          >
            {suggest.isPending ? t('picture.suggesting') : t('picture.suggest')}
          </Button>
        </Flex>
        {/* What the suggestion did, said politely: put in, or offered beside the user's text. */}
        <Text size={2} tone="muted" role="status">
          {outcome === 'none' && t('picture.noSuggestions')}
          {outcome === 'offered' && t('picture.suggestionsOffered')}
          {outcome === 'used' && t('picture.suggestionUsed')}
        </Text>
        {suggest.isError && (
          <Text size={2} tone="danger" role="alert">
            {t('picture.suggestFailed', { message: errorText(suggest.error, t) })}
          </Text>
        )}
        {suggestions.length > 0 && (
          <Stack gap={1} role="group" aria-label={t('picture.suggestions')}>
            {suggestions.map((suggestion) => (
              <Button
                key={suggestion}
                type="button"
                size="small"
                variant="ghost"
                onClick={() => {
                  setPrompt(suggestion.slice(0, PICTURE_PROMPT_MAX));
                  setEdited(false);
                }}
              >
                {suggestion}
              </Button>
            ))}
          </Stack>
        )}
        <Select
          label={t('picture.model')}
          value={model?.modelId ?? ''}
          onValueChange={setModelId}
          options={models.map((m) => ({
            value: m.modelId,
            label: t('picture.modelOption', { name: m.name, count: m.cost }),
          }))}
        />
        <Select
          label={t('picture.size')}
          value={shape}
          onValueChange={(value) => setSize(value as ImageSize)}
          options={sizes.map((value) => ({ value, label: t(`picture.sizes.${value}`) }))}
        />
        <Text size={2}>{t('picture.cost', { count: cost, have: goldCoins })}</Text>
        {tooFew && (
          <Text size={2} tone="danger" role="alert">
            {t('picture.notEnough')}
          </Text>
        )}
        {create.isError && (
          <Text size={2} tone="danger" role="alert">
            {t('picture.createFailed', { message: errorText(create.error, t) })}
          </Text>
        )}
        <Flex gap={2} justify="end">
          <Button type="button" variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={tooFew} aria-busy={create.isPending}>
            {create.isPending ? t('picture.creating') : t('picture.create')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}

/**
 * A queued or running picture: its progress, followed by the polling machine until it ends
 * (its message kept up to date), and Cancel, which the machine sends to the server.
 */
function PictureInProgress({
  roomId,
  messageId,
  image,
  canAct,
}: {
  roomId: string;
  messageId: string;
  image: MessageImage;
  canAct: boolean;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const refreshBenefits = useRefreshBenefits();
  const poller = useActorRef(jobPollingMachine, { input: { client, jobId: image.jobId } });
  const cancelling = useSelector(poller, (state) => state.matches('cancelling'));
  const lost = useSelector(poller, (state) => state.matches('error'));
  useEffect(() => {
    const apply = (status: JobStatus) =>
      patchMessage(queries, roomId, messageId, (message) => ({
        ...message,
        image: message.image && {
          ...message.image,
          state: status.state,
          progress: status.progress,
          url: status.images[0] ?? message.image.url,
          error: status.error,
        },
      }));
    const progress = poller.on('progress', (event) => {
      apply(event.status);
      if (event.status.state === 'failed' || event.status.state === 'cancelled') refreshBenefits();
    });
    return () => progress.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [poller, queries, roomId, messageId]);
  const percent = Math.round(image.progress * 100);
  return (
    <>
      <Text size={2}>
        {image.state === 'queued' ? t('picture.queued') : t('picture.running')}
        {/* The figure is shown, not announced: the conversation is a live region, and the
            progress bar carries it for screen readers. */}
        {image.state === 'running' && (
          <span aria-hidden="true"> {t('picture.percent', { percent })}</span>
        )}
      </Text>
      <progress
        aria-label={t('picture.progress')}
        max={1}
        value={image.progress}
        style={{ width: '100%' }}
      />
      <Text size={1} tone="muted">
        {image.prompt}
      </Text>
      {lost && (
        <Text size={2} tone="danger" role="alert">
          {t('picture.lost')}
        </Text>
      )}
      {canAct && !lost && (
        <Flex gap={2}>
          <Button
            size="small"
            variant="soft"
            aria-busy={cancelling}
            onClick={() => poller.send({ type: 'CANCEL' })}
          >
            {t('picture.cancel')}
          </Button>
        </Flex>
      )}
    </>
  );
}

const active = (image: MessageImage) => image.state === 'queued' || image.state === 'running';

/** A picture message: progress while it is made, then the picture and what can be done with it. */
export function PictureMessage({
  message,
  image,
  mateName,
  onDelete,
  canAct,
  highlighted = false,
}: {
  message: Message;
  image: MessageImage;
  mateName: string;
  onDelete: () => void;
  canAct: boolean;
  /** Marked: the message a link led to (a memory's source). */
  highlighted?: boolean;
}) {
  const { t } = useTranslation();
  const [full, setFull] = useState(false);
  const again = useCreatePicture(message.roomId);
  // The same picture asked again: its prompt, shape and model (the default when it had none).
  const again$ = () =>
    again.mutate({
      prompt: image.prompt,
      size: image.size,
      ...(image.model ? { model: image.model } : {}),
    });
  return (
    <Flex
      role="article"
      aria-label={t('picture.says', { name: mateName })}
      justify="start"
      // A link to the message (a memory's source) scrolls to it, focuses it and marks it.
      {...jumpTarget(message.messageId)}
    >
      <Stack gap={2} style={{ maxWidth: 'min(85%, 420px)', ...highlightRing(highlighted) }}>
        {active(image) && (
          <PictureInProgress
            roomId={message.roomId}
            messageId={message.messageId}
            image={image}
            canAct={canAct}
          />
        )}
        {image.state === 'succeeded' && image.url && (
          <img
            src={image.url}
            alt={image.prompt}
            style={{ width: '100%', height: 'auto', borderRadius: 12, display: 'block' }}
          />
        )}
        {image.state === 'failed' && (
          <Text size={2} tone="danger">
            {image.error ? t('picture.failed', { error: image.error }) : t('picture.failedUnknown')}
          </Text>
        )}
        {image.state === 'cancelled' && (
          <Text size={2} tone="muted">
            {t('picture.cancelled')}
          </Text>
        )}
        {!active(image) && canAct && (
          <Flex gap={2} wrap>
            {image.state === 'succeeded' && image.url && (
              <>
                <Button size="small" variant="soft" onClick={() => setFull(true)}>
                  {t('picture.view')}
                </Button>
                <ButtonLink size="small" variant="soft" href={image.url} download>
                  {t('picture.save')}
                </ButtonLink>
              </>
            )}
            <Button size="small" variant="soft" aria-busy={again.isPending} onClick={again$}>
              {t('picture.again')}
            </Button>
            <Button size="small" variant="ghost" onClick={onDelete}>
              {t('picture.delete')}
            </Button>
          </Flex>
        )}
        {again.isError && (
          <Text size={2} tone="danger" role="alert">
            {t('picture.createFailed', { message: errorText(again.error, t) })}
          </Text>
        )}
      </Stack>
      {image.url && (
        <FullPicture open={full} onOpenChange={setFull} url={image.url} prompt={image.prompt} />
      )}
    </Flex>
  );
}
