import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MATE_FEEDBACK_REASONS,
  type MateFeedbackReason,
  type MateSummary,
} from '@mates/api-client';
import { Button, Dialog, Flex, Select, Stack, Text, TextArea } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

// The select's value before a moderator chooses: no reason is assumed for them.
const UNCHOSEN = 'unchosen';

/** "Hide": why (one of the report reasons) and a note to the creator, then `/admin/hideMate`. */
export function HideDialog({
  open,
  mate,
  onClose,
  onHidden,
}: {
  open: boolean;
  mate: Pick<MateSummary, 'mateId' | 'name'>;
  onClose: () => void;
  onHidden: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [reason, setReason] = useState<MateFeedbackReason | typeof UNCHOSEN>(UNCHOSEN);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const [problem, setProblem] = useState('');
  const hide = useMutation({
    mutationFn: (chosen: MateFeedbackReason) =>
      client.admin.hideMate({
        mateId: mate.mateId,
        reason: chosen,
        ...(note.trim() ? { note: note.trim() } : {}),
      }),
    onSuccess: () => {
      setReason(UNCHOSEN);
      setNote('');
      onHidden();
    },
    // The server's refusal shows in the dialog; the note stays as written.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('moderation.hideTitle', { name: mate.name })}
      description={t('moderation.hideText')}
      closeLabel={t('auth.close')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setProblem('');
          if (reason === UNCHOSEN) return setMissing(true);
          hide.mutate(reason);
        }}
      >
        <Stack gap={3}>
          <Stack gap={1}>
            <Select
              label={t('moderation.reason')}
              value={reason}
              onValueChange={(value) => {
                setMissing(false);
                setReason(value as MateFeedbackReason);
              }}
              options={[
                { value: UNCHOSEN, label: t('moderation.chooseReason') },
                ...MATE_FEEDBACK_REASONS.map((value) => ({
                  value,
                  label: t(`report.reasons.${value}`),
                })),
              ]}
            />
            {missing && (
              <Text role="alert" tone="danger" size={2}>
                {t('moderation.reasonMissing')}
              </Text>
            )}
          </Stack>
          <TextArea
            label={t('moderation.noteLabel')}
            value={note}
            maxLength={2000}
            error={problem || undefined}
            onChange={(event) => setNote(event.target.value)}
          />
          <Flex gap={2} justify="end">
            <Button variant="ghost" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="danger" aria-busy={hide.isPending}>
              {t('moderation.hideConfirm')}
            </Button>
          </Flex>
        </Stack>
      </form>
    </Dialog>
  );
}
