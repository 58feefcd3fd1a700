import { describe, expect, it } from 'vitest';
import {
  createGroupMemberFixture,
  createMessageFixture,
  createRoomGroupFixture,
} from '@mates/api-client/msw';
import { placeGroupNotes } from './group-notes';

const BEGAN = '2026-11-01T10:00:00.000Z';
const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const messages = [
  createMessageFixture({ messageId: 'm1', createdAt: at(1) }),
  createMessageFixture({ messageId: 'm2', createdAt: at(5) }),
  createMessageFixture({ messageId: 'm3', createdAt: at(9) }),
];

describe('placeGroupNotes', () => {
  it('puts a join and a leave before the first message written after each, by time', () => {
    const group = createRoomGroupFixture({
      members: [
        createGroupMemberFixture({ joinedAt: BEGAN }, 0),
        createGroupMemberFixture({ joinedAt: at(3) }, 1),
        createGroupMemberFixture({ joinedAt: BEGAN, leftAt: at(7) }, 2),
      ],
    });
    const { before, after } = placeGroupNotes(group, BEGAN, messages, true);
    expect(before.get('m1')).toBeUndefined();
    expect(before.get('m2')?.map((note) => note.kind)).toEqual(['joined']);
    expect(before.get('m2')?.[0]?.name).toBe(group.members[1]!.mate.name);
    expect(before.get('m3')?.map((note) => [note.kind, note.name])).toEqual([
      ['left', group.members[2]!.mate.name],
    ]);
    expect(after).toEqual([]);
  });

  it('notes every stay of a mate invited back: its earlier leave stays beside its new join', () => {
    const group = createRoomGroupFixture({
      members: [
        createGroupMemberFixture(
          { joinedAt: at(6), earlierStays: [{ joinedAt: BEGAN, leftAt: at(2) }] },
          1,
        ),
      ],
    });
    const { before } = placeGroupNotes(group, BEGAN, messages, true);
    expect(before.get('m2')?.map((note) => note.kind)).toEqual(['left']);
    expect(before.get('m3')?.map((note) => note.kind)).toEqual(['joined']);
    const keys = [...before.values()].flat().map((note) => note.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('puts what happened after the last message after them all', () => {
    const group = createRoomGroupFixture({
      members: [createGroupMemberFixture({ joinedAt: BEGAN, leftAt: at(20) }, 0)],
    });
    const { after } = placeGroupNotes(group, BEGAN, messages, true);
    expect(after.map((note) => note.kind)).toEqual(['left']);
  });

  it('leaves out notes older than the first shown message until the start is loaded', () => {
    const group = createRoomGroupFixture({
      members: [createGroupMemberFixture({ joinedAt: at(2) }, 0)],
    });
    const later = messages.slice(2);
    expect(placeGroupNotes(group, BEGAN, later, false).before.size).toBe(0);
    expect(placeGroupNotes(group, BEGAN, later, true).before.get('m3')).toHaveLength(1);
  });

  it('notes nothing in a one-to-one chat', () => {
    const { before, after } = placeGroupNotes(null, BEGAN, messages, true);
    expect(before.size + after.length).toBe(0);
  });
});
