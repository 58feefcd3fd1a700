import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ImportCardPayload, Mate } from '@mates/api-client';
import { Button, ButtonLink, Card, Flex, Heading, Stack, Text } from '@mates/ui';
import { href, routeTo } from '../../lib/paths';
import { useServices } from '../../lib/services-context';
import { mateKeys } from '../../lib/query-keys';
import { Loading } from '../../components/states';
import { CARD_FILE_ACCEPT, readCardFiles } from './card-file';
import { CardPreviewView } from './card-preview';
import { errorText } from '../../i18n/error-text';

/**
 * Imports a character card: drop a PNG or JSON file (or choose one), see what the import
 * creates and what it leaves unused, then import. Nothing is created before "Import"; Cancel
 * leaves nothing behind.
 */
export function CardImport({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const headingId = useId();
  const problemId = useId();
  const [problem, setProblem] = useState('');
  const [picked, setPicked] = useState<{
    payload: ImportCardPayload;
    picture: string | null;
  } | null>(null);
  const preview = useMutation({
    mutationFn: (payload: ImportCardPayload) => client.mate.previewCard(payload),
    onError: (error) => setProblem(errorText(error, t)),
  });
  const create = useMutation({
    mutationFn: (payload: ImportCardPayload) => client.mate.importCard(payload),
    onSuccess: () => queries.invalidateQueries({ queryKey: mateKeys.mine() }),
    onError: (error) => setProblem(errorText(error, t)),
  });
  const take = async (files: File[]) => {
    setProblem('');
    setPicked(null);
    preview.reset();
    const read = await readCardFiles(files);
    if (!read.ok) return setProblem(t(`cards.problems.${read.problem}`));
    setPicked(read);
    preview.mutate(read.payload);
  };
  return (
    <Card as="section" aria-labelledby={headingId}>
      <Heading as="h3" size={1} id={headingId}>
        {t('cards.title')}
      </Heading>
      {create.data ? (
        <Imported mate={create.data} onClose={onClose} />
      ) : (
        <>
          <DropZone onFiles={take} describedBy={problem ? problemId : undefined} />
          {problem && (
            <Text tone="danger" role="alert" id={problemId}>
              {problem}
            </Text>
          )}
          {preview.isPending && <Loading label={t('cards.reading')} />}
          {preview.data && picked && (
            <CardPreviewView preview={preview.data} picture={picked.picture} />
          )}
          <Flex gap={2} justify="end" wrap>
            <Button variant="ghost" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            {preview.data && picked && (
              // A second press while it runs does nothing (it would import the card twice); not
              // `disabled`, which would drop the keyboard's focus to the page.
              <Button
                aria-busy={create.isPending}
                onClick={() => !create.isPending && create.mutate(picked.payload)}
              >
                {t('cards.import', { name: preview.data.draft.name })}
              </Button>
            )}
          </Flex>
        </>
      )}
    </Card>
  );
}

/** Where a card file is dropped; its button opens the file picker for keyboard and touch. */
function DropZone({
  onFiles,
  describedBy,
}: {
  onFiles: (files: File[]) => void;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const textId = useId();
  return (
    <Card
      role="group"
      aria-labelledby={textId}
      data-testid="card-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        onFiles(Array.from(event.dataTransfer.files));
      }}
    >
      <Text id={textId}>{over ? t('cards.dropNow') : t('cards.drop')}</Text>
      <Flex>
        <Button
          variant="soft"
          aria-describedby={describedBy}
          onClick={() => input.current?.click()}
        >
          {t('cards.choose')}
        </Button>
      </Flex>
      <input
        ref={input}
        type="file"
        accept={CARD_FILE_ACCEPT}
        hidden
        data-testid="card-file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared, so that choosing the same file again reads it again.
          event.target.value = '';
          onFiles(files);
        }}
      />
    </Card>
  );
}

/** After the import: the new mate, with the way to edit it and to chat with it. */
function Imported({ mate, onClose }: { mate: Mate; onClose: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const navigate = useNavigate();
  const chat = useMutation({
    mutationFn: () => client.room.createRoom({ mateId: mate.mateId }),
    onSuccess: (room) => navigate(routeTo('/chat-detail', { roomId: room.roomId })),
  });
  return (
    <Stack gap={3}>
      <Text role="status">{t('cards.imported', { name: mate.name })}</Text>
      <Flex gap={2} wrap>
        <ButtonLink href={href('/generate', { mateId: mate.mateId })}>
          {t('cards.openEditor')}
        </ButtonLink>
        <Button variant="soft" aria-busy={chat.isPending} onClick={() => chat.mutate()}>
          {t('cards.startChat')}
        </Button>
        <Button variant="ghost" onClick={onClose}>
          {t('cards.done')}
        </Button>
      </Flex>
      {chat.isError && (
        <Text tone="danger" role="alert">
          {errorText(chat.error, t)}
        </Text>
      )}
    </Stack>
  );
}
