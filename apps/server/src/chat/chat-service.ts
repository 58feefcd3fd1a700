import type { LanguageModel } from '../llm/language-model';

/** The model, and which rooms have a reply being written (one at a time per room). */
export interface ChatService {
  model: LanguageModel;
  /** How often a growing reply is saved (a reload shows it). */
  saveEveryMs: number;
  /** Whether a reply is being written in the room. */
  isBusy: (roomId: string) => boolean;
  /** Marks the room busy; aborting the controller stops the reply. */
  begin: (roomId: string) => AbortController;
  /** Marks the room free again. */
  end: (roomId: string) => void;
  /** Stops the room's reply, if any. */
  stop: (roomId: string) => void;
}

/** A chat service over `model`; replies in progress live in this process. */
export function createChatService(
  model: LanguageModel,
  options: { saveEveryMs?: number } = {},
): ChatService {
  const active = new Map<string, AbortController>();
  return {
    model,
    saveEveryMs: options.saveEveryMs ?? 1000,
    isBusy: (roomId) => active.has(roomId),
    begin: (roomId) => {
      const controller = new AbortController();
      active.set(roomId, controller);
      return controller;
    },
    end: (roomId) => void active.delete(roomId),
    stop: (roomId) => active.get(roomId)?.abort(),
  };
}
