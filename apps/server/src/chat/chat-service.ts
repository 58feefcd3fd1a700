import { setTimeout } from 'node:timers/promises';
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
  /**
   * Marks the room free again. With `controller` (what `begin` gave), only while the room is
   * still that one's: a holder whose lock expired, and which another took since, frees nothing.
   */
  end: (roomId: string, controller?: AbortController) => Promise<void>;
  /**
   * Stops the room's reply, if any, on whichever server writes it; on this one with `reason`
   * (see {@link RoomDeleted}), elsewhere as the reader's own stop.
   */
  stop: (roomId: string, reason?: unknown) => Promise<void>;
  /**
   * Marks the room busy for a change that cannot wait for its reply (the room deleted): a reply
   * being written is stopped (again at every try: a send may take the room meanwhile), and the
   * room taken once it is free. `null` when it still was not free after
   * {@link TAKE_OVER_WAITS_MS} (a server that did not hear the stop), or when the locks cannot
   * be read (Redis away: no reply can begin anywhere either): the caller goes on without it.
   * {@link ChatService.end} frees it.
   */
  takeOver: (roomId: string, reason?: unknown) => Promise<AbortController | null>;
  /**
   * Stops every reply this server writes, and each one begun afterwards, with `reason` (a
   * shutdown: see {@link ServerStopping}).
   */
  stopAll: (reason: unknown) => void;
  /** Resolves once this server writes no reply. */
  whenIdle: () => Promise<void>;
}

/** How long {@link ChatService.takeOver} waits for a stopped reply to end: each wait, in turn. */
export const TAKE_OVER_WAITS_MS = [10, 20, 40, 80, 150, 300, 600, 1000, 1000, 1000];

/** Why replies are stopped when the server shuts down: they end saved, with an `error` event. */
export class ServerStopping extends Error {
  override name = 'ServerStopping';
  constructor() {
    super('The server is stopping.');
  }
}

/**
 * Why a reply is stopped when its room is deleted: it ends with an `error` event saying so,
 * not as the reader's own stop. Only the server that deletes the room knows the reason; a
 * reply another server writes hears a plain stop (the stop requests carry a room's id alone).
 */
export class RoomDeleted extends Error {
  override name = 'RoomDeleted';
  constructor() {
    super('The chat was deleted.');
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
  const stopHere = (roomId: string, reason?: unknown) =>
    active.get(roomId)?.controller.abort(reason);
  options.stops?.listen((roomId) => stopHere(roomId));
  const begin = async (roomId: string): Promise<AbortController | null> => {
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
  };
  const stop = async (roomId: string, reason?: unknown) => {
    stopHere(roomId, reason);
    await options.stops?.publish(roomId);
  };
  return {
    model,
    saveEveryMs: options.saveEveryMs ?? 1000,
    open: () => active.size,
    isBusy: (roomId) => locks.isHeld(roomId),
    begin,
    end: async (roomId, controller) => {
      const entry = active.get(roomId);
      if (controller && entry && entry.controller !== controller) return;
      active.delete(roomId);
      await entry?.claim.release();
      if (active.size > 0) return;
      for (const resolve of idle) resolve();
      idle = [];
    },
    stop,
    takeOver: async (roomId, reason) => {
      for (const wait of [0, ...TAKE_OVER_WAITS_MS]) {
        if (wait > 0) await setTimeout(wait);
        let held: AbortController | null;
        try {
          held = await begin(roomId);
        } catch {
          // The locks cannot be read (Redis away, said by the locks): no reply can begin either.
          await stop(roomId, reason);
          return null;
        }
        if (held) return held;
        // Asked at every try: a send may have taken the room since the last.
        await stop(roomId, reason);
      }
      return null;
    },
    stopAll: (reason) => {
      stopping = { reason };
      for (const { controller } of active.values()) controller.abort(reason);
    },
    whenIdle: () =>
      active.size === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve)),
  };
}
