import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, type ApiClient, type DataExport } from '@mates/api-client';
import { Button, Card, Flex, Heading, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';
import { InlineLoadError, isNotFound } from '../../components/states';
import { exportStatusQuery, yourDataKeys } from './api/your-data-queries';
import { openDownload } from './open-download';
import { fileSize } from '../../lib/file-size';

/**
 * "Download my data": asks the server to gather everything the account holds into one zip,
 * shows how far it got while it is built, then a link that downloads it (and when it stops
 * working). A mail says so too, for a person who left the page.
 */
export function DataExportCard() {
  const { t } = useTranslation();
  const { client } = useServices();
  const queryClient = useQueryClient();
  const status = useQuery(exportStatusQuery(client));
  const start = useMutation({
    mutationFn: () => client.user.exportData(),
    onSuccess: (latest) => queryClient.setQueryData(yourDataKeys.exportStatus(), { latest }),
  });
  const latest = status.data?.latest ?? null;
  const building = latest?.state === 'queued' || latest?.state === 'running';
  const place = useFocusFollowsExport(latest?.state, start.isSuccess);
  return (
    <Card as="section" aria-labelledby="profile-data-export">
      <Heading as="h2" size={2} id="profile-data-export">
        {t('yourData.exportTitle')}
      </Heading>
      <Text tone="muted" size={2}>
        {t('yourData.exportText')}
      </Text>
      {status.isError && <InlineLoadError query={status} title={t('yourData.statusFailed')} />}
      <div aria-live="polite" ref={place} tabIndex={-1}>
        {latest && <ExportState latest={latest} />}
      </div>
      {start.isError && (
        <Text tone="danger" role="alert">
          {errorText(start.error, t)}
        </Text>
      )}
      {!building && !status.isPending && (
        <Flex gap={2}>
          <Button
            variant={latest?.state === 'ready' ? 'soft' : 'solid'}
            aria-busy={start.isPending}
            onClick={() => start.mutate()}
          >
            {latest ? t('yourData.exportAgain') : t('yourData.export')}
          </Button>
        </Flex>
      )}
    </Card>
  );
}

/**
 * Keeps the focus with the export the person asked for: the button they pressed goes while the
 * zip is built, and the focus, dropped to the page, made a keyboard's Tab start again from the
 * top. It goes to the export's state while it is built, then to "Download the zip". Only a
 * focus that was lost moves: one the person took elsewhere meanwhile stays.
 */
function useFocusFollowsExport(state: DataExport['state'] | undefined, asked: boolean) {
  // The export's state in the card: where the focus goes while the zip is built.
  const place = useRef<HTMLDivElement>(null);
  const following = useRef(false);
  useEffect(() => {
    const building = state === 'queued' || state === 'running';
    if (asked && building) following.current = true;
    const area = place.current;
    if (!following.current || !area) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || active === area;
    if (!lost) {
      following.current = false;
      return;
    }
    if (building) area.focus();
    else {
      following.current = false;
      (area.querySelector('button') ?? area).focus();
    }
  }, [state, asked]);
  return place;
}

/** Whether a download was refused because its zip is gone (a newer one, or it expired). */
const isGone = (error: unknown) =>
  isNotFound(error) || (error instanceof ApiError && error.status === 404);

/**
 * Downloads the ready zip: its link works only with its owner's session, so the app asks for a
 * ticket with the session (a minute's link of the zip for its owner alone) and hands that to
 * the browser, which saves the zip to disk as it arrives, however large. A signed-out answer
 * opens the sign-in, after which the person downloads again. A link that stopped working reads
 * the export again: a page left open past its link's hour takes the link signed now, and only
 * a zip that is gone (a newer one, or its week over) is said to be.
 */
function useZipDownload(client: ApiClient) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (downloadUrl: string) => {
      const ticket = (link: string) => client.user.exportTicket({ downloadUrl: link });
      const { url } = await ticket(downloadUrl).catch(async (error: unknown) => {
        if (!isGone(error)) throw error;
        const { latest } = await queryClient.fetchQuery(exportStatusQuery(client));
        const fresh = latest?.state === 'ready' ? latest.downloadUrl : null;
        if (!fresh || fresh === downloadUrl) throw error;
        return ticket(fresh);
      });
      openDownload(url, document, import.meta.env.VITE_API_BASE);
    },
  });
}

function ExportState({ latest }: { latest: DataExport }) {
  const { t, i18n } = useTranslation();
  const { client } = useServices();
  const zip = useZipDownload(client);
  const date = (at: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short' }).format(
      new Date(at),
    );
  if (latest.state === 'queued' || latest.state === 'running') {
    const percent = Math.round(latest.progress * 100);
    return (
      <Stack gap={1}>
        <Text>
          {latest.state === 'queued' ? t('yourData.queued') : t('yourData.running', { percent })}
        </Text>
        <progress max={100} value={percent} aria-label={t('yourData.progressLabel')} />
      </Stack>
    );
  }
  if (latest.state === 'ready' && latest.downloadUrl) {
    const size = fileSize(latest.size ?? 0, i18n.language);
    return (
      <Stack gap={2}>
        <Text weight="bold">{t('yourData.ready')}</Text>
        <Flex>
          <Button aria-busy={zip.isPending} onClick={() => zip.mutate(latest.downloadUrl!)}>
            {zip.isPending ? t('yourData.downloading') : t('yourData.download', { size })}
          </Button>
        </Flex>
        {zip.isError && (
          <Text tone="danger" role="alert">
            {isGone(zip.error) ? t('yourData.downloadGone') : errorText(zip.error, t)}
          </Text>
        )}
        {latest.expiresAt && (
          <Text tone="muted" size={2}>
            {t('yourData.readyUntil', { date: date(latest.expiresAt) })}
          </Text>
        )}
      </Stack>
    );
  }
  if (latest.state === 'expired') return <Text tone="muted">{t('yourData.expired')}</Text>;
  return (
    <Text tone="danger" role="alert">
      {latest.error ?? t('yourData.failed')}
    </Text>
  );
}
