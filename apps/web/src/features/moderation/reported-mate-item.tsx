import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MateReport, ReportedMate } from '@mates/api-client';
import { Avatar, Button, Card, Flex, Heading, Link, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { HideDialog } from './hide-dialog';
import { errorText } from '../../i18n/error-text';
import { mateKeys } from '../../lib/query-keys';
import { moderationKeys } from './api/moderation-queries';

/** Invalidates what a moderation action changes: both tabs of the queue and the mate's page. */
export function useModerationDone(mateId: string) {
  const queries = useQueryClient();
  return () =>
    Promise.all([
      queries.invalidateQueries({ queryKey: moderationKeys.reports() }),
      queries.invalidateQueries({ queryKey: mateKeys.detail(mateId) }),
    ]);
}

/** One reported or hidden mate: what it is, its open reports, and what a moderator can do. */
export function ReportedMateItem({ item }: { item: ReportedMate }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const { mate, reports } = item;
  const done = useModerationDone(mate.mateId);
  const [hiding, setHiding] = useState(false);
  const [dismissing, setDismissing] = useState(false);
  const [problem, setProblem] = useState('');
  const dismiss = useMutation({
    mutationFn: () => client.admin.dismissReports({ mateId: mate.mateId }),
    onMutate: () => setProblem(''),
    onSuccess: () =>
      notices.trigger.added({
        tone: 'positive',
        message: t('moderation.dismissed', { name: mate.name }),
      }),
    onError: (error) => setProblem(errorText(error, t)),
    onSettled: async () => {
      setDismissing(false);
      await done();
    },
  });
  const restore = useMutation({
    mutationFn: () => client.admin.restoreMate({ mateId: mate.mateId }),
    onMutate: () => setProblem(''),
    onSuccess: () =>
      notices.trigger.added({
        tone: 'positive',
        message: t('moderation.restored', { name: mate.name }),
      }),
    onError: (error) => setProblem(errorText(error, t)),
    onSettled: done,
  });
  return (
    <Card as="li" aria-label={mate.name}>
      <Flex gap={3} align="start">
        <Avatar src={mate.avatar} name={mate.name} size="large" decorative />
        <Stack gap={1}>
          <Heading as="h2" size={1}>
            <Link href={href('/detail', { mateId: mate.mateId })}>{mate.name}</Link>
          </Heading>
          <Text tone="muted" size={2}>
            <Link href={href('/creator', { creatorId: mate.creator.creatorId })}>
              {t('moderation.by', { name: mate.creator.name })}
            </Link>{' '}
            · {t(`visibility.${mate.visibility}`)} ·{' '}
            {t('moderation.openReports', { count: item.openReports })}
          </Text>
          {mate.moderation && (
            <>
              <Text tone="danger" weight="bold" size={2}>
                {t('moderation.hiddenBecause', {
                  reason: t(`report.reasons.${mate.moderation.reason}`),
                })}{' '}
                · <When at={mate.moderation.hiddenAt} />
              </Text>
              {mate.moderation.note && (
                <Text size={2}>{t('moderation.note', { note: mate.moderation.note })}</Text>
              )}
            </>
          )}
        </Stack>
      </Flex>
      {reports.length > 0 && (
        <Stack as="ul" gap={2} aria-label={t('moderation.reports', { name: mate.name })}>
          {reports.map((report) => (
            <ReportItem key={report.reportId} report={report} />
          ))}
        </Stack>
      )}
      {problem && (
        <Text role="alert" tone="danger">
          {problem}
        </Text>
      )}
      <Flex gap={2} justify="end" wrap>
        {reports.length > 0 && (
          <Button
            variant="ghost"
            size="small"
            aria-label={t('moderation.dismissLabel', { name: mate.name })}
            onClick={() => setDismissing(true)}
          >
            {t('moderation.dismiss')}
          </Button>
        )}
        {mate.moderation ? (
          <Button
            variant="soft"
            size="small"
            aria-label={t('moderation.restoreLabel', { name: mate.name })}
            aria-busy={restore.isPending}
            onClick={() => restore.mutate()}
          >
            {t('moderation.restore')}
          </Button>
        ) : (
          <Button
            variant="danger"
            size="small"
            aria-label={t('moderation.hideLabel', { name: mate.name })}
            onClick={() => setHiding(true)}
          >
            {t('moderation.hide')}
          </Button>
        )}
      </Flex>
      <HideDialog
        open={hiding}
        mate={mate}
        onClose={() => setHiding(false)}
        onHidden={async () => {
          setHiding(false);
          notices.trigger.added({
            tone: 'positive',
            message: t('moderation.hiddenDone', { name: mate.name }),
          });
          await done();
        }}
      />
      <ConfirmDialog
        open={dismissing}
        title={t('moderation.dismissTitle', { name: mate.name })}
        text={t('moderation.dismissText')}
        confirm={t('moderation.dismiss')}
        busy={dismiss.isPending}
        onConfirm={() => dismiss.mutate()}
        onCancel={() => setDismissing(false)}
      />
    </Card>
  );
}

/** One report: why, the reporter's words, who and when. */
function ReportItem({ report }: { report: MateReport }) {
  const { t } = useTranslation();
  return (
    <Stack as="li" gap={1}>
      <Text weight="bold" size={2}>
        {t(`report.reasons.${report.reason}`)}
      </Text>
      <Text size={2} tone={report.content ? 'default' : 'muted'}>
        {report.content || t('moderation.noWords')}
      </Text>
      <Text tone="muted" size={1}>
        {report.reporter?.name ?? t('moderation.visitor')} · <When at={report.createdAt} />
      </Text>
    </Stack>
  );
}

/** A moment, in the reader's language. */
function When({ at }: { at: string }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={at}>
      {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(at),
      )}
    </time>
  );
}
