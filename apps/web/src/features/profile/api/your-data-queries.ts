import { queryOptions } from '@tanstack/react-query';
import type { ApiClient, DataExport } from '@mates/api-client';

/** The query keys of "Your data" (read by the profile only). */
export const yourDataKeys = {
  /** The newest "Download my data" zip and where it stands. */
  exportStatus: () => ['user', 'exportStatus'] as const,
  /** What deleting the account would delete. */
  deletionPreview: () => ['user', 'deletionPreview'] as const,
};

/** How often a zip being built is looked at again. */
export const EXPORT_POLL_MS = 1500;

const building = (latest: DataExport | null | undefined) =>
  latest?.state === 'queued' || latest?.state === 'running';

/**
 * The newest export, read again every {@link EXPORT_POLL_MS} while it is being built (its
 * progress), and not otherwise. A ready one's download link works for an hour: it is read
 * afresh each time the profile opens.
 */
export const exportStatusQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: yourDataKeys.exportStatus(),
    queryFn: ({ signal }) => client.user.exportStatus({ signal }),
    refetchInterval: (query) => (building(query.state.data?.latest) ? EXPORT_POLL_MS : false),
    staleTime: 0,
  });

/** What deleting the account would delete, read when the person opens the dialog. */
export const deletionPreviewQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: yourDataKeys.deletionPreview(),
    queryFn: ({ signal }) => client.user.deletionPreview({ signal }),
    staleTime: 0,
  });
