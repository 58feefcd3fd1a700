import { LRUCache } from 'lru-cache';
import type { RoomTable } from '../db/schema';
import type { Logger } from '../logging/logger';
import type { JobQueue } from '../jobs/job-queue';
import type { FittedPrompt } from './conversation';
import { MEMORY_JOB, type MemoryJobPayload } from './memory-writer';

/** How many messages may wait outside the prompt, unremembered, before memories are written. */
export const MEMORY_AFTER = 4;

/**
 * How long a room whose memories were asked for is not asked again by sends, unless the job
 * ends in this process first (see {@link MemoryKeeper.settled}); after a failure, longer.
 */
const ASKED_AGAIN_MS = 15_000;
const FAILED_ASKED_AGAIN_MS = 5 * 60_000;

/** How much memory the prompts held may take, in bytes (their text, twice). */
const HELD_BYTES = 64 * 1024 * 1024;

/** A reply's prompt as this server built it. */
export interface HeldPrompt {
  /** The reply it was built for (`null` while a reply built ahead has no id yet). */
  replyId: string | null;
  prompt: FittedPrompt;
  builtAt: string;
}

/**
 * What the chat tells the memory: each reply's prompt (held for "What the mate sees", and
 * watched for messages that left it, which are then remembered by a durable job).
 */
export interface MemoryKeeper {
  /** A reply's prompt in `room` was built; `replyId` is `null` when it was built ahead. */
  built: (room: RoomTable, prompt: FittedPrompt, replyId: string | null) => void;
  /** The reply whose prompt was built ahead in room `roomId` is `replyId`. */
  replied: (roomId: string, replyId: string) => void;
  /** The last prompt this server built in room `roomId`, if it still holds it. */
  lastPrompt: (roomId: string) => HeldPrompt | undefined;
  /** Asks for room `roomId`'s messages before position `before` to be remembered. */
  remember: (roomId: string, before: number) => Promise<void>;
  /** A run of room `roomId`'s memory job ended here: the next send may ask again (or, failed, later). */
  settled: (roomId: string, failed: boolean) => void;
  /**
   * Where the newest prompt this server built in room `roomId` starts: a run of its memory
   * job goes that far, even when it was asked for less (sends that came while it waited).
   */
  wanted: (roomId: string) => number | undefined;
}

/** The memory keeper of one server: prompts held in memory (bounded), jobs in the database. */
export function createMemoryKeeper(deps: { jobs: JobQueue; log: Logger }): MemoryKeeper {
  // The prompts of the rooms that replied last, bounded by their size: a prompt is the size of
  // the model's context, which may be set to hundreds of kilobytes.
  const prompts = new LRUCache<string, HeldPrompt>({
    max: 2000,
    maxSize: HELD_BYTES,
    sizeCalculation: ({ prompt }) =>
      prompt.turns.reduce((sum, turn) => sum + 2 * turn.content.length, 1024),
  });
  const asked = new LRUCache<string, true>({ max: 10_000, ttl: ASKED_AGAIN_MS });
  const wanted = new LRUCache<string, number>({ max: 10_000 });
  const remember = async (roomId: string, before: number) => {
    const payload: MemoryJobPayload = { roomId, before };
    await deps.jobs.enqueue(MEMORY_JOB, payload, { singletonKey: roomId });
  };
  return {
    built(room, prompt, replyId) {
      prompts.set(room.id, { replyId, prompt, builtAt: new Date().toISOString() });
      const before = prompt.oldestKept;
      if (before === null || before - 1 - room.memory_through < MEMORY_AFTER) return;
      // The newest prompt's start (not the largest seen: a chat taken on from an earlier
      // message starts its prompt earlier again).
      wanted.set(room.id, before);
      if (asked.has(room.id)) return;
      asked.set(room.id, true, {
        ttl: room.memory_error ? FAILED_ASKED_AGAIN_MS : ASKED_AGAIN_MS,
      });
      // After the reply's first words: asking is a write, and nothing of the reply waits on it.
      setImmediate(() => {
        remember(room.id, before).catch((error: unknown) =>
          deps.log.error(
            `could not ask for the memories of room ${room.id}: ${(error as Error).message}`,
          ),
        );
      });
    },
    replied(roomId, replyId) {
      const held = prompts.get(roomId);
      if (held && held.replyId === null) held.replyId = replyId;
    },
    lastPrompt: (roomId) => prompts.get(roomId),
    remember,
    wanted: (roomId) => wanted.get(roomId),
    settled(roomId, failed) {
      if (failed) asked.set(roomId, true, { ttl: FAILED_ASKED_AGAIN_MS });
      else asked.delete(roomId);
    },
  };
}
