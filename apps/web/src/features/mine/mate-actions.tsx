import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { CardFormat, CardSpec, OwnMateSummary } from '@mates/api-client';
import { Button, ButtonLink, Dialog, Flex, Stack, Text } from '@mates/ui';
import { href, routeTo } from '../../lib/paths';
import { useServices } from '../../lib/services-context';
import { mateKeys } from '../../lib/query-keys';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { saveCardFile } from './card-file';
import { errorText } from '../../i18n/error-text';

/**
 * What one can do with one's own mate: edit, chat, duplicate, publish or make private,
 * export, delete. Every control is named with the mate's name. `lockedBy` is the id of the
 * text that says why a hidden mate cannot be published or exported (the server refuses both).
 */
export function MateActions({ mate, lockedBy }: { mate: OwnMateSummary; lockedBy?: string }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState('');
  const { mateId, name } = mate;
  const refresh = () => queries.invalidateQueries({ queryKey: mateKeys.mine() });
  const said = (message: string) => notices.trigger.added({ tone: 'positive', message });
  const failed = (error: Error) => setProblem(errorText(error, t));
  const chat = useMutation({
    mutationFn: () => client.room.createRoom({ mateId }),
    onSuccess: (room) => navigate(routeTo('/chat-detail', { roomId: room.roomId })),
    onError: failed,
  });
  const duplicate = useMutation({
    mutationFn: () => client.mate.duplicateMate({ mateId }),
    onSuccess: (copy) => said(t('myMates.duplicated', { name: copy.name })),
    onError: failed,
    onSettled: refresh,
  });
  const publishing = mate.visibility !== 'public';
  const visibility = useMutation({
    mutationFn: () =>
      client.mate.setVisibility({ mateId, visibility: publishing ? 'public' : 'private' }),
    onSuccess: (saved) =>
      said(t(saved.visibility === 'public' ? 'myMates.nowPublic' : 'myMates.nowPrivate', { name })),
    onError: failed,
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => client.mate.deleteMate({ mateId }),
    onSuccess: () => {
      setDeleting(false);
      said(t('myMates.deleted', { name }));
    },
    onError: (error) => {
      setDeleting(false);
      failed(error);
    },
    onSettled: refresh,
  });
  const run = (action: { mutate: () => void }) => () => {
    setProblem('');
    action.mutate();
  };
  return (
    <Stack gap={2}>
      <Flex gap={2} justify="end" wrap role="group" aria-label={t('myMates.actions', { name })}>
        <ButtonLink
          size="small"
          variant="soft"
          href={href('/generate', { mateId })}
          aria-label={t('myMates.editName', { name })}
        >
          {t('myMates.edit')}
        </ButtonLink>
        {mate.visibility !== 'draft' && (
          <Button
            size="small"
            variant="soft"
            aria-label={t('myMates.chatName', { name })}
            aria-busy={chat.isPending}
            onClick={run(chat)}
          >
            {t('myMates.chat')}
          </Button>
        )}
        <Button
          size="small"
          variant="ghost"
          aria-label={t(publishing ? 'myMates.publishName' : 'myMates.unpublishName', { name })}
          aria-busy={visibility.isPending}
          disabled={mate.moderation !== null}
          aria-describedby={mate.moderation ? lockedBy : undefined}
          onClick={run(visibility)}
        >
          {t(publishing ? 'myMates.publish' : 'myMates.unpublish')}
        </Button>
        <Button
          size="small"
          variant="ghost"
          aria-label={t('myMates.duplicateName', { name })}
          aria-busy={duplicate.isPending}
          onClick={run(duplicate)}
        >
          {t('myMates.duplicate')}
        </Button>
        <Button
          size="small"
          variant="ghost"
          aria-label={t('myMates.exportName', { name })}
          disabled={mate.moderation !== null}
          aria-describedby={mate.moderation ? lockedBy : undefined}
          onClick={() => setExporting(true)}
        >
          {t('myMates.export')}
        </Button>
        <Button
          size="small"
          variant="ghost"
          aria-label={t('myMates.deleteName', { name })}
          onClick={() => setDeleting(true)}
        >
          {t('myMates.delete')}
        </Button>
      </Flex>
      {problem && (
        <Text tone="danger" size={2} role="alert">
          {problem}
        </Text>
      )}
      <ExportDialog mate={mate} open={exporting} onClose={() => setExporting(false)} />
      <ConfirmDialog
        open={deleting}
        title={t('myMates.deleteTitle', { name })}
        text={t('myMates.deleteText', { name })}
        confirm={t('myMates.deleteConfirm')}
        busy={remove.isPending}
        onConfirm={run(remove)}
        onCancel={() => setDeleting(false)}
      />
    </Stack>
  );
}

const EXPORTS: { format: CardFormat; spec?: CardSpec; label: string }[] = [
  { format: 'png', label: 'myMates.exportPng' },
  { format: 'json', spec: 'v2', label: 'myMates.exportJsonV2' },
  { format: 'json', spec: 'v3', label: 'myMates.exportJsonV3' },
];

/** Export as a card file: PNG (carrying V2 and V3) or JSON V2 or V3, saved under the server's name. */
function ExportDialog({
  mate,
  open,
  onClose,
}: {
  mate: OwnMateSummary;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const download = useMutation({
    mutationFn: (choice: { format: CardFormat; spec?: CardSpec }) =>
      client.mate.exportCard({ mateId: mate.mateId, ...choice }),
    onSuccess: (file) => {
      saveCardFile(file, document);
      notices.trigger.added({
        tone: 'positive',
        message: t('myMates.exported', { filename: file.filename }),
      });
      onClose();
    },
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        download.reset();
        onClose();
      }}
      title={t('myMates.exportTitle', { name: mate.name })}
      description={t('myMates.exportText')}
      closeLabel={t('auth.close')}
    >
      <Stack gap={2}>
        {EXPORTS.map(({ format, spec, label }) => (
          <Button
            key={label}
            variant={format === 'png' ? 'solid' : 'soft'}
            aria-busy={
              download.isPending &&
              download.variables?.format === format &&
              download.variables.spec === spec
            }
            onClick={() => download.mutate({ format, ...(spec ? { spec } : {}) })}
          >
            {t(label as 'myMates.exportPng')}
          </Button>
        ))}
        {download.isError && (
          <Text tone="danger" role="alert">
            {errorText(download.error, t)}
          </Text>
        )}
      </Stack>
    </Dialog>
  );
}
