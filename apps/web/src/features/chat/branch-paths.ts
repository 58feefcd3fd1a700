import type { Branch } from '@mates/api-client';

// Where the paths of a chat meet, and how they nest, from `GET /room/branches`.

/**
 * The paths that meet at each message of room `roomId` where there are two or more, ordered by
 * when they were made: the room itself; the paths branched from it at that message; and, at
 * the message the room itself was branched at, the path it was branched from and its siblings
 * (branched from that path at the same message).
 */
export function forksOf(branches: readonly Branch[], roomId: string): Map<string, Branch[]> {
  const self = branches.find((branch) => branch.roomId === roomId);
  const forks = new Map<string, Branch[]>();
  if (!self) return forks;
  const add = (messageId: string, branch: Branch) => {
    const paths = forks.get(messageId) ?? [self];
    if (!paths.includes(branch)) paths.push(branch);
    forks.set(messageId, paths);
  };
  for (const branch of branches) {
    if (branch.fork?.parentRoomId === roomId) add(branch.fork.parentMessageId, branch);
  }
  const own = self.fork;
  if (own) {
    for (const branch of branches) {
      const parent = branch.roomId === own.parentRoomId;
      // Siblings share the parent and its message (a deleted parent: `null` for each of them).
      const sibling =
        branch !== self &&
        branch.fork?.parentRoomId === own.parentRoomId &&
        branch.fork.parentMessageId === own.parentMessageId;
      if (parent || sibling) add(own.messageId, branch);
    }
  }
  for (const [messageId, paths] of forks) forks.set(messageId, paths.toSorted(byCreation));
  return forks;
}

const byCreation = (a: Branch, b: Branch) =>
  a.createdAt.localeCompare(b.createdAt) || a.roomId.localeCompare(b.roomId);

/** One path of the chat in its tree: the path, and the paths branched from it. */
export interface BranchNode {
  branch: Branch;
  children: BranchNode[];
}

/**
 * The chat's paths as a tree, each under the path it was branched from, oldest first; a path
 * whose parent was deleted stands at the top with the first path.
 */
export function branchTree(branches: readonly Branch[]): BranchNode[] {
  const nodes = new Map<string, BranchNode>(
    branches.map((branch) => [branch.roomId, { branch, children: [] }]),
  );
  const roots: BranchNode[] = [];
  for (const branch of branches.toSorted(byCreation)) {
    const node = nodes.get(branch.roomId)!;
    const parent = branch.fork?.parentRoomId ? nodes.get(branch.fork.parentRoomId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
