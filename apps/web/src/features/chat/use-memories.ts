import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemorySubject } from '@mates/api-client';
import { isNotFound } from '../../components/states';
import { useServices } from '../../lib/services-context';
import { roomMemoriesQuery } from './api/chat-queries';
import { dropMemory, keepMemory, replaceMemories } from './api/memory-cache';
import { useSayFailure } from './use-say-failure';

/** What `POST /room/saveMemory` is asked for: a new fact (no `memoryId`) or a change. */
export interface MemoryChange {
  memoryId?: string;
  /** The words; left out of a pin or a "Keep", which leave them as they are on the server. */
  content?: string;
  pinned?: boolean;
  about?: MemorySubject;
  /** In a group, whose it is: a member, or `null` for the whole group's. */
  mateId?: string | null;
}

/**
 * A room's memories and what the Memory panel does to them: save (add, edit, pin, keep), forget,
 * the "Remember me across chats" setting, and a new try after the writer failed. Each answer
 * goes straight into the cached list.
 */
export function useMemories(roomId: string) {
  const { client } = useServices();
  const queries = useQueryClient();
  const memories = useQuery(roomMemoriesQuery(client, roomId));
  const sayFailure = useSayFailure();
  const save = useMutation({
    mutationFn: (change: MemoryChange) => client.room.saveMemory({ roomId, ...change }),
    onSuccess: (memory) => keepMemory(queries, roomId, memory),
  });
  const forget = useMutation({
    mutationFn: async (memoryId: string) => {
      try {
        return await client.room.deleteMemory({ roomId, memoryId });
      } catch (error) {
        // Forgotten already (in another tab, since this one read the list): as asked.
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    onSuccess: (_none, memoryId) => dropMemory(queries, roomId, memoryId),
    // The question stays open to try again; its button has no place to say why.
    onError: sayFailure,
  });
  const acrossChats = useMutation({
    mutationFn: (enabled: boolean) => client.room.setMemoryAcrossChats({ roomId, enabled }),
    onSuccess: (data) => replaceMemories(queries, roomId, data),
    // The switch stays as it was; it has no place to say why.
    onError: sayFailure,
  });
  const writeAgain = useMutation({
    mutationFn: () => client.room.writeMemories({ roomId }),
    // Answered `writing`: the query polls until the writer is done.
    onSuccess: (data) => replaceMemories(queries, roomId, data),
  });
  return { memories, save, forget, acrossChats, writeAgain };
}

/** What {@link useMemories} gives. */
export type MemoriesState = ReturnType<typeof useMemories>;
