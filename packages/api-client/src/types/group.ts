import type { IsoDateTime } from './common';
import type { MateSummary } from './mate';

/** Every way a group chooses who speaks after the person's message. */
export const GROUP_TURN_ORDERS = ['natural', 'list', 'manual'] as const;

/**
 * Who speaks after the person's message, once the mates named in it have: `natural` (each
 * member by its talkativeness, at least one), `list` (every member, in the list's order) or
 * `manual` (nobody but those named; the person lets a mate speak with "Let X speak").
 */
export type GroupTurnOrder = (typeof GROUP_TURN_ORDERS)[number];

/** The bounds of a group chat. */
export const GROUP_LIMITS = {
  /** Fewest mates in a group. */
  minMembers: 2,
  /** Most mates in a group (muted ones count). */
  maxMembers: 6,
  /** Longest group name, in characters. */
  nameMax: 80,
  /** Longest group scenario, in characters. */
  scenarioMax: 4000,
  /** Most replies after one message of the person. */
  repliesPerTurn: 6,
  /** Most "Continue"s (or "Let X speak"s) in a row without a message of the person. */
  continuesInRow: 10,
} as const;

/** Talkativeness of a mate whose card says none (SillyTavern's default). */
export const DEFAULT_TALKATIVENESS = 0.5;

/** A stay of a mate in a group that ended: from when it joined to when it left. */
export interface GroupStay {
  /** When it joined. */
  joinedAt: IsoDateTime;
  /** When it left. */
  leftAt: IsoDateTime;
}

/** One mate of a group, or one that was. */
export interface GroupMember {
  /** The mate, as cards show it. */
  mate: MateSummary;
  /** Muted: it does not speak on its own (it still may when named or let speak). */
  muted: boolean;
  /** How readily it speaks in the natural order, 0 to 1 (its card's, unless changed). */
  talkativeness: number;
  /** When it joined. */
  joinedAt: IsoDateTime;
  /** When it left (removed, or turned private or hidden by its creator), else `null`. */
  leftAt: IsoDateTime | null;
  /**
   * Its stays before this one, oldest first, for a mate that left and was invited back (the
   * conversation notes each join and leave); empty for most.
   */
  earlierStays: GroupStay[];
  /**
   * Still a member, but the caller's own setting hides it (an adult mate while they have adult
   * content off): it does not speak, and cannot be let speak, until the setting allows it.
   */
  hidden: boolean;
}

/** A group chat: what a room of several mates adds to a one-to-one room. */
export interface RoomGroup {
  /** The group's name. */
  name: string;
  /** Where and when the scene takes place; every mate's prompt carries it. */
  scenario: string;
  /** Who speaks after the person's message. */
  turnOrder: GroupTurnOrder;
  /**
   * Every mate that is or was in the group, in the list's order (members first, then those
   * that left, by when they left): past replies of those that left keep their names.
   */
  members: GroupMember[];
  /**
   * Replies asked for with "Continue" or "Let X speak" since the person last wrote: at
   * `GROUP_LIMITS.continuesInRow` the mates wait for the person (the server refuses more).
   */
  continuesInRow: number;
}

/** Payload of `POST /room/createGroup`: a new group chat. */
export interface CreateGroupPayload {
  /** 2 to 6 different mates the caller may chat with, in the list's order. */
  mateIds: string[];
  /** Its name; absent or empty for the mates' names joined. */
  name?: string;
  /** Its scenario; absent for none. */
  scenario?: string;
  /** Who speaks after the person's message; `natural` when absent. */
  turnOrder?: GroupTurnOrder;
  /** The persona the person plays; absent for the default persona. */
  personaId?: string;
}

/** Payload of `POST /room/updateGroup`: the group's name, scenario, order or list. */
export interface UpdateGroupPayload {
  /** The room (a group of the caller's). */
  roomId: string;
  /** A new name (1 to 80 characters). */
  name?: string;
  /** A new scenario. */
  scenario?: string;
  /** A new order. */
  turnOrder?: GroupTurnOrder;
  /**
   * The present members' mate ids in their new places in the list (the `list` order's and the
   * members sheet's): each present member exactly once, else a 4000 and nothing changes. Refused
   * with a 5007 while a reply is being written, as other changes of the members are.
   */
  order?: string[];
}

/** Payload of `POST /room/addGroupMember` and `POST /room/removeGroupMember`. */
export interface GroupMemberPayload {
  /** The room (a group of the caller's). */
  roomId: string;
  /** The mate to invite (one the caller may chat with) or to remove. */
  mateId: string;
}

/** Payload of `POST /room/updateGroupMember`: mute a member, or change its talkativeness. */
export interface UpdateGroupMemberPayload extends GroupMemberPayload {
  /** Muted or not. */
  muted?: boolean;
  /** 0 to 1. */
  talkativeness?: number;
}
