import type { QueryClient } from '@tanstack/react-query';
import type { Memory, RoomMemories } from '@mates/api-client';
import { chatKeys } from './chat-queries';

// What the Memory panel writes into a room's cached memories from the server's answers,
// without reading them all again: a memory added or changed goes where the server lists it.

/** Where a memory is listed: the summary, then pinned facts, then the others. */
const rank = (memory: Memory) => (memory.kind === 'summary' ? 0 : memory.pinned ? 1 : 2);

/**
 * The list with `memory` in its place, as the server orders it: the summary first, then pinned
 * facts (one just pinned last among them), then the other facts, newest first. A memory whose
 * words changed keeps its place.
 */
export function placeMemory(memories: Memory[], memory: Memory): Memory[] {
  const old = memories.findIndex((m) => m.memoryId === memory.memoryId);
  // Changed where it stays (its words, kept): in the same place.
  if (old !== -1 && rank(memories[old]!) === rank(memory))
    return memories.map((m, index) => (index === old ? memory : m));
  const others = memories.filter((m) => m.memoryId !== memory.memoryId);
  const before = others.findIndex((m) =>
    rank(m) !== rank(memory)
      ? rank(m) > rank(memory)
      : rank(memory) === 2 && m.createdAt <= memory.createdAt,
  );
  const at = before === -1 ? others.length : before;
  return [...others.slice(0, at), memory, ...others.slice(at)];
}

/** Changes a room's cached memories. */
function patchMemories(
  queries: QueryClient,
  roomId: string,
  patch: (memories: Memory[]) => Memory[],
) {
  queries.setQueryData<RoomMemories>(chatKeys.memories(roomId), (data) =>
    data ? { ...data, memories: patch(data.memories) } : data,
  );
}

/** A memory the server saved (added, changed, pinned, kept) goes in its place. */
export function keepMemory(queries: QueryClient, roomId: string, memory: Memory) {
  patchMemories(queries, roomId, (memories) => placeMemory(memories, memory));
}

/** A memory the server forgot leaves the list. */
export function dropMemory(queries: QueryClient, roomId: string, memoryId: string) {
  patchMemories(queries, roomId, (memories) => memories.filter((m) => m.memoryId !== memoryId));
}

/** What the server answered with the whole list (the setting, a new try at writing). */
export function replaceMemories(queries: QueryClient, roomId: string, data: RoomMemories) {
  queries.setQueryData<RoomMemories>(chatKeys.memories(roomId), data);
}
