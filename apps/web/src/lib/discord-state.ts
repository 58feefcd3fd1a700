import type { KeyValueStorage } from '@mates/state-machines';

/** Where the tab keeps the state it issued. */
export const DISCORD_STATE_KEY = 'mates.discordState';

/**
 * The OAuth `state` of a Discord sign-in, kept in the tab that started it (`sessionStorage`):
 * a redirect back whose state is not the one this tab issued carries someone else's code.
 */
export interface DiscordStates {
  /** A fresh random state for the authorize URL, replacing any earlier one. */
  issue(): string;
  /** Whether `state` is the one this tab issued; either way it is used up. */
  take(state: string | null): boolean;
}

/** Keeps Discord sign-in states in `storage`. */
export function createDiscordStates(storage: KeyValueStorage): DiscordStates {
  return {
    issue: () => {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      const state = btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      storage.setItem(DISCORD_STATE_KEY, state);
      return state;
    },
    take: (state) => {
      const issued = storage.getItem(DISCORD_STATE_KEY);
      storage.setItem(DISCORD_STATE_KEY, '');
      return Boolean(state && issued && state === issued);
    },
  };
}
