import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MATE_FEEDBACK_REASONS, type MateFeedbackReason } from '@mates/api-client';
import { Button, Dialog, Flex, Select, Stack, TextArea } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

/** "Report" and its dialog: why the mate is wrong, sent through `/mate/feedback`. */
export function ReportMate({ mateId, name }: { mateId: string; name: string }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<MateFeedbackReason>('inappropriate');
  const [content, setContent] = useState('');
  const [problem, setProblem] = useState('');
  const report = useMutation({
    mutationFn: () =>
      client.mate.feedback({
        mateId,
        reason,
        ...(content.trim() ? { content: content.trim() } : {}),
      }),
    onSuccess: () => {
      setOpen(false);
      setContent('');
      notices.trigger.added({ tone: 'positive', message: t('report.sent') });
    },
    // The server's refusal shows in the dialog; what was written stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        {t('report.open')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t('report.title', { name })}
        description={t('report.text')}
        closeLabel={t('auth.close')}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setProblem('');
            report.mutate();
          }}
        >
          <Stack gap={3}>
            <Select
              label={t('report.reason')}
              value={reason}
              onValueChange={(value) => setReason(value as MateFeedbackReason)}
              options={MATE_FEEDBACK_REASONS.map((value) => ({
                value,
                label: t(`report.reasons.${value}`),
              }))}
            />
            <TextArea
              label={t('report.details')}
              value={content}
              maxLength={2000}
              error={problem || undefined}
              onChange={(event) => setContent(event.target.value)}
            />
            <Flex gap={2} justify="end">
              <Button variant="ghost" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" variant="danger" aria-busy={report.isPending}>
                {t('report.send')}
              </Button>
            </Flex>
          </Stack>
        </form>
      </Dialog>
    </>
  );
}
