import type { LanguageModel } from '../llm/language-model';

/** The model, and which rooms have a reply being written (one at a time per room). */
export interface ChatService {
  model: LanguageModel;
  /** How often a growing reply is saved (a reload shows it). */
  saveEveryMs: number;
  /** How many replies are being written now (each is a stream open to its reader). */
  open: () => number;
  /** Whether a reply is being written in the room. */
  isBusy: (roomId: string) => boolean;
  /** Marks the room busy; aborting the controller stops the reply. */
  begin: (roomId: string) => AbortController;
  /** Marks the room free again. */
  end: (roomId: string) => void;
  /** Stops the room's reply, if any. */
  stop: (roomId: string) => void;
  /** Stops every reply in progress, with `reason` (a shutdown: see {@link ServerStopping}). */
  stopAll: (reason: unknown) => void;
  /** Resolves once no reply is being written. */
  whenIdle: () => Promise<void>;
}

/** Why replies are stopped when the server shuts down: they end saved, with an `error` event. */
export class ServerStopping extends Error {
  override name = 'ServerStopping';
  constructor() {
    super('The server is stopping.');
  }
}

/** A chat service over `model`; replies in progress live in this process. */
export function createChatService(
  model: LanguageModel,
  options: { saveEveryMs?: number } = {},
): ChatService {
  const active = new Map<string, AbortController>();
  let idle: (() => void)[] = [];
  return {
    model,
    saveEveryMs: options.saveEveryMs ?? 1000,
    open: () => active.size,
    isBusy: (roomId) => active.has(roomId),
    begin: (roomId) => {
      const controller = new AbortController();
      active.set(roomId, controller);
      return controller;
    },
    end: (roomId) => {
      active.delete(roomId);
      if (active.size > 0) return;
      for (const resolve of idle) resolve();
      idle = [];
    },
    stop: (roomId) => active.get(roomId)?.abort(),
    stopAll: (reason) => {
      for (const controller of active.values()) controller.abort(reason);
    },
    whenIdle: () =>
      active.size === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve)),
  };
}
