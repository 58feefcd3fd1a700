import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ChatExportFormat } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { forgetDraft } from '../../lib/drafts';
import { roomKeys } from '../../lib/query-keys';
import { routeTo } from '../../lib/paths';
import { chatKeys, roomBranchesQuery } from './api/chat-queries';
import { saveTextFile } from './save-text-file';
import { useSayFailure } from './use-say-failure';

/**
 * The paths of the chat room `roomId` belongs to. `fresh`: read again on mount even when cached
 * (the Branches view: a reply since changed the open path's count and preview).
 */
export function useBranches(roomId: string, { fresh = false } = {}) {
  const { client } = useServices();
  return useQuery({
    ...roomBranchesQuery(client, roomId),
    enabled: roomId !== '',
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** A path made or deleted: every chat's paths and the lists of chats (their counts) are read again. */
function refreshBranches(queries: QueryClient) {
  void queries.invalidateQueries({ queryKey: chatKeys.allBranches() });
  void queries.invalidateQueries({ queryKey: roomKeys.lists() });
}

/**
 * "Branch from here": makes a new path of the chat from one of room `roomId`'s messages, then
 * opens it and says so (the other path is kept).
 */
export function useBranchFrom(roomId: string) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const sayFailure = useSayFailure();
  return useMutation({
    mutationFn: (messageId: string) => client.room.branch({ roomId, messageId }),
    onSuccess: (room) => {
      refreshBranches(queries);
      navigate(routeTo('/chat-detail', { roomId: room.roomId }));
      notices.trigger.added({ tone: 'positive', message: t('branches.made') });
    },
    onError: sayFailure,
  });
}

/** Deletes one path of a chat (a room of its own); the chat's other paths stay as they are. */
export function useDeleteBranch() {
  const { client, storage } = useServices();
  const queries = useQueryClient();
  const sayFailure = useSayFailure();
  return useMutation({
    mutationFn: (roomId: string) => client.room.deleteRoom({ roomId }),
    onSuccess: (_none, roomId) => {
      forgetDraft(storage, roomId);
      queries.removeQueries({ queryKey: roomKeys.messages(roomId) });
      refreshBranches(queries);
    },
    onError: sayFailure,
  });
}

/** Exports path `roomId` in a format and saves the file under the server's name. */
export function useExportChat(roomId: string) {
  const { client } = useServices();
  return useMutation({
    mutationFn: (format: ChatExportFormat) => client.room.exportChat({ roomId, format }),
    onSuccess: (file) => saveTextFile(file, document),
  });
}
