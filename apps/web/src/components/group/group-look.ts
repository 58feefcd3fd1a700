import type { TFunction } from 'i18next';
import type { GroupMember, RoomGroup } from '@mates/api-client';

/** The members still in a group (those that left keep their place in `members`, after them). */
export function currentMembers(group: RoomGroup): GroupMember[] {
  return group.members.filter((member) => member.leftAt === null);
}

/** A member by its mate's id, present or past; `undefined` for a mate never in the group. */
export function memberOf(group: RoomGroup, mateId: string | null | undefined) {
  return mateId ? group.members.find((member) => member.mate.mateId === mateId) : undefined;
}

/** What `GroupPortrait` draws and says: the members' portraits, the group's name and theirs. */
export function portraitOf(group: RoomGroup, t: TFunction, language: string) {
  const members = currentMembers(group).map(({ mate }) => ({ name: mate.name, src: mate.avatar }));
  const names = new Intl.ListFormat(language, { type: 'conjunction' }).format(
    members.map((member) => member.name),
  );
  return { members, label: t('group.portrait', { name: group.name, members: names }) };
}
