import type { LanguageModel } from '../llm/language-model';
import { memoryRoomLocks, type RoomClaim, type RoomLocks } from './room-locks';
import type { StopRequests } from './stop-requests';

/** The model, and which rooms have a reply being written (one at a time per room). */
export interface ChatService {
  model: LanguageModel;
  /** How often a growing reply is saved (a reload shows it). */
  saveEveryMs: number;
  /** How many replies are being written now (each is a stream open to its reader). */
  open: () => number;
  /** Whether a reply is being written in the room, by this server or another. */
  isBusy: (roomId: string) => Promise<boolean>;
  /**
   * Marks the room busy, or answers `null` when a reply is written in it already; aborting the
   * controller stops the reply (so does losing the room's lock).
   */
  begin: (roomId: string) => Promise<AbortController | null>;
  /** Marks the room free again. */
  end: (roomId: string) => Promise<void>;
  /** Stops the room's reply, if any, on whichever server writes it. */
  stop: (roomId: string) => Promise<void>;
  /**
   * Stops every reply this server writes, and each one begun afterwards, with `reason` (a
   * shutdown: see {@link ServerStopping}).
   */
  stopAll: (reason: unknown) => void;
  /** Resolves once this server writes no reply. */
  whenIdle: () => Promise<void>;
}

/** Why replies are stopped when the server shuts down: they end saved, with an `error` event. */
export class ServerStopping extends Error {
  override name = 'ServerStopping';
  constructor() {
    super('The server is stopping.');
  }
}

/** Where rooms are locked and stop requests travel; in this process unless given. */
export interface ChatServiceOptions {
  saveEveryMs?: number;
  /** Default: {@link memoryRoomLocks}. */
  locks?: RoomLocks;
  /** Default: stops reach this process only. */
  stops?: StopRequests;
}

/** A chat service over `model`. */
export function createChatService(
  model: LanguageModel,
  options: ChatServiceOptions = {},
): ChatService {
  const locks = options.locks ?? memoryRoomLocks();
  const active = new Map<string, { controller: AbortController; claim: RoomClaim }>();
  let idle: (() => void)[] = [];
  /** Set by `stopAll`: why replies begun from then on are stopped at once. */
  let stopping: { reason: unknown } | null = null;
  const stopHere = (roomId: string) => active.get(roomId)?.controller.abort();
  options.stops?.listen(stopHere);
  return {
    model,
    saveEveryMs: options.saveEveryMs ?? 1000,
    open: () => active.size,
    isBusy: (roomId) => locks.isHeld(roomId),
    begin: async (roomId) => {
      const claim = await locks.claim(roomId);
      if (!claim) return null;
      const controller = new AbortController();
      claim.lost.addEventListener('abort', () => controller.abort(claim.lost.reason), {
        once: true,
      });
      active.set(roomId, { controller, claim });
      // Begun after the server began to stop (a send that was waiting its turn): stopped as
      // the others were, so the stop does not wait for a whole reply.
      if (stopping) controller.abort(stopping.reason);
      return controller;
    },
    end: async (roomId) => {
      const entry = active.get(roomId);
      active.delete(roomId);
      await entry?.claim.release();
      if (active.size > 0) return;
      for (const resolve of idle) resolve();
      idle = [];
    },
    stop: async (roomId) => {
      stopHere(roomId);
      await options.stops?.publish(roomId);
    },
    stopAll: (reason) => {
      stopping = { reason };
      for (const { controller } of active.values()) controller.abort(reason);
    },
    whenIdle: () =>
      active.size === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve)),
  };
}
