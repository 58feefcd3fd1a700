import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { RoomGroup, RoomInfo, UpdateGroupMemberPayload } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { roomKeys } from '../../lib/query-keys';

/** Writes a group as the server answered it into the room's cached pages, and the room lists. */
function useKeepGroup(roomId: string) {
  const queries = useQueryClient();
  return (group: RoomGroup) => {
    queries.setQueryData<InfiniteData<RoomInfo>>(roomKeys.messages(roomId), (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({ ...page, room: { ...page.room, group } })),
          }
        : data,
    );
    void queries.invalidateQueries({ queryKey: roomKeys.lists() });
  };
}

/**
 * A group's changes, each answered by the group as it now is: its name, scenario and order;
 * a member invited, removed, muted or made more or less talkative; the members' places.
 */
export function useGroupChanges(roomId: string) {
  const { client } = useServices();
  const keep = useKeepGroup(roomId);
  const settings = useMutation({
    mutationFn: (change: Pick<RoomGroup, 'name' | 'scenario' | 'turnOrder'>) =>
      client.room.updateGroup({ roomId, ...change }),
    onSuccess: keep,
  });
  const invite = useMutation({
    mutationFn: (mateId: string) => client.room.addGroupMember({ roomId, mateId }),
    onSuccess: keep,
  });
  const remove = useMutation({
    mutationFn: (mateId: string) => client.room.removeGroupMember({ roomId, mateId }),
    onSuccess: keep,
  });
  const reorder = useMutation({
    mutationFn: (order: string[]) => client.room.updateGroup({ roomId, order }),
    onSuccess: keep,
  });
  const member = useMutation({
    mutationFn: (change: Omit<UpdateGroupMemberPayload, 'roomId'>) =>
      client.room.updateGroupMember({ roomId, ...change }),
    onSuccess: keep,
  });
  return { settings, invite, remove, member, reorder };
}

/** The group changes of a room, as {@link useGroupChanges} gives them. */
export type GroupChanges = ReturnType<typeof useGroupChanges>;
