import type { PublicMatesChoice } from '@mates/api-client';
import type { KeyValueStorage } from '@mates/state-machines';

/** Where the tab keeps the state it issued. */
export const DISCORD_STATE_KEY = 'mates.discordState';

/** Where the tab keeps the state of a Discord sign-in that confirms deleting the account. */
export const DISCORD_CONFIRMATION_KEY = 'mates.discordConfirmation';

/** What a Discord sign-in that confirms "Delete my account" carries across the redirect. */
export interface DiscordConfirmation {
  /** The OAuth state of the sign-in. */
  state: string;
  /** What the person chose for their public mates before leaving for Discord. */
  publicMates: PublicMatesChoice;
}

/**
 * The OAuth `state` of a Discord sign-in, kept in the tab that started it (`sessionStorage`):
 * a redirect back whose state is not the one this tab issued carries someone else's code.
 */
export interface DiscordStates {
  /** A fresh random state for the authorize URL, replacing any earlier one. */
  issue(): string;
  /** Whether `state` is the one this tab issued; either way it is used up. */
  take(state: string | null): boolean;
  /**
   * A fresh random state for a Discord sign-in that proves it is the person before their
   * account is deleted (its code is a proof, not a sign-in), keeping their choice with it.
   */
  issueConfirmation(publicMates: PublicMatesChoice): string;
  /**
   * The confirmation `state` belongs to, when this tab issued it for one, else `null`; either
   * way it is used up.
   */
  takeConfirmation(state: string | null): DiscordConfirmation | null;
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function readConfirmation(text: string | null): DiscordConfirmation | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<DiscordConfirmation>;
    return typeof value.state === 'string' &&
      (value.publicMates === 'keep' || value.publicMates === 'delete')
      ? { state: value.state, publicMates: value.publicMates }
      : null;
  } catch {
    // Not one this app wrote: no confirmation.
    return null;
  }
}

/** Keeps Discord sign-in states in `storage`. */
export function createDiscordStates(storage: KeyValueStorage): DiscordStates {
  return {
    issue: () => {
      const state = randomState();
      storage.setItem(DISCORD_STATE_KEY, state);
      return state;
    },
    take: (state) => {
      const issued = storage.getItem(DISCORD_STATE_KEY);
      storage.setItem(DISCORD_STATE_KEY, '');
      return Boolean(state && issued && state === issued);
    },
    issueConfirmation: (publicMates) => {
      const state = randomState();
      storage.setItem(DISCORD_CONFIRMATION_KEY, JSON.stringify({ state, publicMates }));
      return state;
    },
    takeConfirmation: (state) => {
      const issued = readConfirmation(storage.getItem(DISCORD_CONFIRMATION_KEY));
      storage.setItem(DISCORD_CONFIRMATION_KEY, '');
      return state && issued && issued.state === state ? issued : null;
    },
  };
}

/**
 * The router location state with which a Discord sign-in that confirms deleting the account
 * comes back to the profile: the code (a proof, spent by the deletion) and the choice made.
 */
export interface DeletionProofState {
  deletionProof: { discordCode: string; publicMates: PublicMatesChoice };
}

/** The Discord proof in a location's state, when it carries one. */
export function deletionProofIn(state: unknown): DeletionProofState['deletionProof'] | null {
  const proof = (state as Partial<DeletionProofState> | null)?.deletionProof;
  return proof && typeof proof.discordCode === 'string' ? proof : null;
}
