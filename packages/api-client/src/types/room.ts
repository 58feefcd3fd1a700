import type { MessageImage } from './media';
import type { IsoDateTime, PageQuery } from './common';
import type { Mate, MateSummary } from './mate';
import type { Persona } from './user';
import type { RoomGroup } from './group';
import type { MessageCall } from './call';

/** Every author a message may have. */
export const MESSAGE_ROLES = ['user', 'mate'] as const;

/** Who wrote a message. */
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** Every way a message may have ended. */
export const MESSAGE_STATUSES = ['complete', 'partial', 'error'] as const;

/**
 * How a message ended: `complete`; `partial` when a reply was cut off (disconnect, stop,
 * provider failure) and holds what arrived; `error` when nothing arrived.
 */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** One message of a room. */
export interface Message {
  /** Message id. */
  messageId: string;
  /** The room it belongs to. */
  roomId: string;
  /** Who wrote it. */
  role: MessageRole;
  /** Markdown text. */
  content: string;
  /** How it ended. */
  status: MessageStatus;
  /** When it was written. */
  createdAt: IsoDateTime;
  /** When it was last edited, or `null`. */
  editedAt: IsoDateTime | null;
  /** A picture message (role `mate`, empty content), or `null` for text. */
  image: MessageImage | null;
  /**
   * Other versions of this message to swipe between (a greeting's alternate greetings, the
   * earlier replies a regeneration kept): which one is shown (0-based) of how many; absent when
   * there is only one. `content` is the one shown, what the conversation continues from.
   */
  swipes?: MessageSwipes;
  /**
   * In a group chat, the mate that wrote a `mate` message (see {@link RoomGroup.members} for
   * its name and portrait); absent in a one-to-one chat and on the person's messages.
   */
  speakerId?: string;
  /**
   * How the message came from a voice call: the call it was said in, and for a reply the
   * person interrupted `cut: true` (its text is what the mate said before). Absent on typed
   * messages.
   */
  call?: MessageCall;
}

/** Where a message stands among its versions. */
export interface MessageSwipes {
  /** The version shown, 0-based. */
  index: number;
  /** How many versions there are (at least 2). */
  count: number;
}

/** Payload of `POST /room/setPersona`: who the person plays in this chat from now on. */
export interface SetRoomPersonaPayload {
  /** The room (the caller's own). */
  roomId: string;
  /** One of the caller's personas, or `null` to be themselves (their nickname). */
  personaId: string | null;
}

/**
 * Payload of `POST /room/chooseSwipe`: show another version of the room's last mate message
 * (the conversation continues from it).
 */
export interface ChooseSwipePayload {
  /** The room. */
  roomId: string;
  /** The room's last mate message. */
  messageId: string;
  /** The version to show, 0-based. */
  index: number;
}

/** A room: one user's chat with one mate, or with a group of mates. */
export interface Room {
  /** Room id. */
  roomId: string;
  /** The mate (in a group, the first member). */
  mateId: string;
  /** The persona the user plays here, or `null`. */
  personaId: string | null;
  /** When it was created. */
  createdAt: IsoDateTime;
  /** When its last message was written. */
  updatedAt: IsoDateTime;
  /** The group, in a group chat; absent in a one-to-one chat. */
  group?: RoomGroup;
}

/** One row of the recent-chats list (`GET /room/roomList`). */
export interface RoomSummary extends Room {
  /** The mate, as cards show it (in a group, the first member; see `group`). */
  mate: MateSummary;
  /** The newest message, or `null` in an empty room. */
  lastMessage: Message | null;
  /**
   * How many paths the chat has (1 without branches). The list shows a chat once, by its path
   * used last: that path is this room.
   */
  branchCount?: number;
}

/** Query of `GET /room/createRoom`: opens a new room with a mate. */
export interface CreateRoomQuery {
  /** The mate to chat with. */
  mateId: string;
  /** The persona to play; absent for the default persona. */
  personaId?: string;
}

/** Query of `GET /room/roomList`: the caller's chats, latest first. */
export interface RoomListQuery extends PageQuery {
  /** Only chats whose mate's name holds this (any case); absent or empty for all. */
  keyword?: string;
}

/** Query of `GET /room/roomInfo`: a room with a page of its messages. */
export interface RoomInfoQuery {
  /** The room. */
  roomId: string;
  /** Only messages older than this one (for loading earlier history); absent for the newest. */
  before?: string;
  /** How many messages; default 50, at most 100. */
  pageSize?: number;
}

/** Answer of `GET /room/roomInfo`. */
export interface RoomInfo {
  /** The room. */
  room: Room;
  /** The whole mate (in a group, the first member). */
  mate: Mate;
  /** The persona in use, or `null`. */
  persona: Persona | null;
  /** A page of messages, oldest first (newest last). */
  messages: Message[];
  /** Whether older messages exist before the first one given. */
  hasMoreBefore: boolean;
  /**
   * Why the room takes no new message (its mate turned private or was hidden), for people;
   * `null` when the chat can go on. A read-only room keeps its messages but not the closed
   * card's fields.
   */
  readOnly: string | null;
}

/** Query of `GET /room/deleteRoom`. */
export interface RoomQuery {
  /** The room. */
  roomId: string;
}

/** Query of `GET /room/deleteMessage`. */
export interface DeleteMessageQuery {
  /** The room. */
  roomId: string;
  /** The message to delete. */
  messageId: string;
}

/** Query of `GET /room/editMessage`. */
export interface EditMessageQuery {
  /** The room. */
  roomId: string;
  /** The message to change (the caller's own rooms only). */
  messageId: string;
  /** The new text, 1–8,000 characters. */
  content: string;
}
