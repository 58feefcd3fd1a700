import { describe, expect, it } from 'vitest';
import type { Branch } from '@mates/api-client';
import { createBranchFixture, createRoomBranchesFixture } from '@mates/api-client/msw';
import { branchTree, forksOf, type BranchNode } from './branch-paths';

// room-1 (msg-1 to msg-3); room-2 and room-3 branched from it at msg-2 (copies msg-2-b, msg-2-c).
const chat = createRoomBranchesFixture().branches;
// room-4 branched from room-2 at its own message msg-3-b.
const grandchild = createBranchFixture({
  roomId: 'room-4',
  fork: { parentRoomId: 'room-2', parentMessageId: 'msg-3-b', messageId: 'msg-3-b-d' },
  createdAt: '2026-11-21T09:00:00.000Z',
});
const ids = (forks: Map<string, Branch[]>) =>
  Object.fromEntries(
    [...forks].map(([messageId, paths]) => [messageId, paths.map((p) => p.roomId)]),
  );
const tree = (nodes: BranchNode[]): unknown =>
  nodes.map((node) => [node.branch.roomId, tree(node.children)]);

// Where the switcher stands in a room, and which paths it moves between, in order.
describe('forksOf', () => {
  it('has no switcher in a chat of one path', () => {
    expect(ids(forksOf([createBranchFixture()], 'room-1'))).toEqual({});
  });

  it('puts the first path and its branches at the message they were branched at', () => {
    expect(ids(forksOf(chat, 'room-1'))).toEqual({ 'msg-2': ['room-1', 'room-2', 'room-3'] });
  });

  it('puts the parent and the siblings at a branch’s copy of that message', () => {
    expect(ids(forksOf(chat, 'room-2'))).toEqual({ 'msg-2-b': ['room-1', 'room-2', 'room-3'] });
    expect(ids(forksOf(chat, 'room-3'))).toEqual({ 'msg-2-c': ['room-1', 'room-2', 'room-3'] });
  });

  it('gives a branch of a branch its own switcher, apart from the first fork', () => {
    const all = [...chat, grandchild];
    expect(ids(forksOf(all, 'room-2'))).toEqual({
      'msg-2-b': ['room-1', 'room-2', 'room-3'],
      'msg-3-b': ['room-2', 'room-4'],
    });
    expect(ids(forksOf(all, 'room-4'))).toEqual({ 'msg-3-b-d': ['room-2', 'room-4'] });
  });

  it('orders by when each path was made, not by the list’s order', () => {
    const reversed = [chat[2]!, { ...chat[1]!, createdAt: '2026-11-22T00:00:00.000Z' }, chat[0]!];
    expect(ids(forksOf(reversed, 'room-1'))).toEqual({ 'msg-2': ['room-1', 'room-3', 'room-2'] });
  });

  it('keeps the siblings together once the path they came from is deleted', () => {
    const orphans = chat
      .slice(1)
      .map((branch) => ({ ...branch, fork: { ...branch.fork!, parentRoomId: null } }));
    expect(ids(forksOf(orphans, 'room-2'))).toEqual({ 'msg-2-b': ['room-2', 'room-3'] });
  });

  it('has nothing for a room the list does not hold', () => {
    expect(ids(forksOf(chat, 'room-9'))).toEqual({});
  });
});

describe('branchTree', () => {
  it('puts each branch under the path it came from, oldest first', () => {
    expect(tree(branchTree([grandchild, ...chat]))).toEqual([
      [
        'room-1',
        [
          ['room-2', [['room-4', []]]],
          ['room-3', []],
        ],
      ],
    ]);
  });

  it('puts a branch whose path was deleted at the top', () => {
    const all = [chat[0]!, { ...grandchild, fork: { ...grandchild.fork!, parentRoomId: null } }];
    expect(tree(branchTree(all))).toEqual([
      ['room-1', []],
      ['room-4', []],
    ]);
  });
});
