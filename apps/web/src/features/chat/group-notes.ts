import type { Message, RoomGroup } from '@mates/api-client';

/** A line between messages: a mate joined the group midway, or left it. */
export interface GroupNote {
  key: string;
  kind: 'joined' | 'left';
  name: string;
  at: string;
}

/**
 * Where the group's joins and leaves fall among the shown messages, by time: each note goes
 * before the first message written after it (`before`, by message id), or after them all
 * (`after`), for every stay of a member (one invited back has earlier ones). A member that
 * joined with the room is not noted. Until the conversation is loaded
 * from its start (`fromStart`), notes older than the first shown message are left out: they
 * belong among messages not shown yet.
 */
export function placeGroupNotes(
  group: RoomGroup | null,
  roomCreatedAt: string,
  messages: readonly Message[],
  fromStart: boolean,
) {
  const before = new Map<string, GroupNote[]>();
  const after: GroupNote[] = [];
  if (!group) return { before, after };
  const began = Date.parse(roomCreatedAt);
  // Each stay of each member, a mate invited back having several: a join and a leave each.
  const notes: GroupNote[] = group.members.flatMap(({ mate, joinedAt, leftAt, earlierStays }) =>
    [...earlierStays, { joinedAt, leftAt }].flatMap((stay) => [
      ...(Date.parse(stay.joinedAt) > began
        ? [
            {
              key: `${mate.mateId}-joined-${stay.joinedAt}`,
              kind: 'joined' as const,
              name: mate.name,
              at: stay.joinedAt,
            },
          ]
        : []),
      ...(stay.leftAt
        ? [
            {
              key: `${mate.mateId}-left-${stay.leftAt}`,
              kind: 'left' as const,
              name: mate.name,
              at: stay.leftAt,
            },
          ]
        : []),
    ]),
  );
  const first = messages[0] ? Date.parse(messages[0].createdAt) : Infinity;
  for (const note of notes.toSorted((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    const time = Date.parse(note.at);
    if (!fromStart && time < first) continue;
    const next = messages.find((message) => Date.parse(message.createdAt) > time);
    if (!next) after.push(note);
    else before.set(next.messageId, [...(before.get(next.messageId) ?? []), note]);
  }
  return { before, after };
}
