import type { IsoDateTime } from './common';

/** The longest text a memory may hold, in characters. */
export const MEMORY_TEXT_MAX = 1000;

/** The most memories one chat keeps; past it, the oldest unpinned facts the mate wrote go. */
export const MEMORIES_PER_ROOM_MAX = 500;

/** Every kind of memory. */
export const MEMORY_KINDS = ['fact', 'summary'] as const;

/**
 * What a memory is: a short `fact` ("Her sister is called Ana"), or the chat's running
 * `summary` of the story so far (at most one per chat).
 */
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Every subject a memory may have. */
export const MEMORY_SUBJECTS = ['story', 'person'] as const;

/**
 * What a memory is about: the `story` of this chat, or the `person` who chats (their name,
 * their sister, what they like), which may follow them into their other chats with the mate.
 */
export type MemorySubject = (typeof MEMORY_SUBJECTS)[number];

/** One thing a mate remembers of a chat. */
export interface Memory {
  /** Memory id. */
  memoryId: string;
  /** The chat it belongs to. */
  roomId: string;
  /** A fact or the summary. */
  kind: MemoryKind;
  /** What is remembered, in plain text. */
  content: string;
  /** What it is about. */
  about: MemorySubject;
  /** Pinned memories are always in the prompt. */
  pinned: boolean;
  /** Who wrote it: the mate (from the chat's messages, in the background) or the person. */
  author: 'mate' | 'person';
  /**
   * In a group chat, the member whose own memory it is (only that mate's prompts read it);
   * `null` for what the whole chat shares: every memory of a one-to-one chat, a group's
   * summary, and what the whole group heard.
   */
  mateId: string | null;
  /**
   * The messages it was made from, oldest first (a click in the Memory panel jumps to the
   * first); empty for a memory the person wrote.
   */
  sourceMessageIds: string[];
  /**
   * `true` when a message it was made from has been edited or deleted since: the memory may no
   * longer be true, and the person is asked to check it (editing or keeping it clears this).
   */
  needsReview: boolean;
  /** When it was written. */
  createdAt: IsoDateTime;
  /** When it was last changed. */
  updatedAt: IsoDateTime;
}

/** What the background writer of a chat's memories is doing. */
export interface MemoryWriter {
  /**
   * `idle`: every message that left the prompt is remembered; `writing`: memories are being
   * written from messages that left it; `failed`: the last try failed (`error` says why), and
   * `POST /room/writeMemories` tries again.
   */
  state: 'idle' | 'writing' | 'failed';
  /** Why the last try failed (a sentence for people), else `null`. */
  error: string | null;
}

/** A chat's memories as the Memory panel shows them. */
export interface RoomMemories {
  /** The summary first, if any; then pinned facts; then the other facts, newest first. */
  memories: Memory[];
  /** The background writer. */
  writer: MemoryWriter;
  /**
   * Whether facts about the person from their other chats with this mate are carried into this
   * one (and this chat's into theirs): the "Remember me across chats" setting of the mate.
   */
  acrossChats: boolean;
}

/** Query of `GET /room/memories`. */
export interface RoomMemoriesQuery {
  /** The room (the caller's own). */
  roomId: string;
  /**
   * In a group chat, a member (present or past): only what it remembers, the group's shared
   * memories and its own. Refused (4000) for a mate that is not a member, or in a one-to-one
   * chat. All of the chat's memories when absent.
   */
  mateId?: string;
}

/** Payload of `POST /room/writeMemories`: writes the chat's memories again (after a failure). */
export interface WriteMemoriesPayload {
  /** The room (the caller's own). */
  roomId: string;
}

/** Payload of `POST /room/saveMemory`: adds a memory (no `memoryId`) or changes one. */
export interface SaveMemoryPayload {
  /** The room (the caller's own). */
  roomId: string;
  /** The memory to change; absent to add one (a fact, written by the person). */
  memoryId?: string;
  /**
   * Its text (1 to {@link MEMORY_TEXT_MAX} characters after trimming). Required to add one;
   * unchanged when absent on a change (a pin, a "Keep": words changed meanwhile, in another
   * tab, stay).
   */
  content?: string;
  /** Whether it is always in the prompt; unchanged when absent (new ones: not pinned). */
  pinned?: boolean;
  /** What it is about; unchanged when absent (new ones: the story). */
  about?: MemorySubject;
  /**
   * In a group chat, whose memory it is: a member still in the group, or `null` for the
   * group's shared memories (the summary always is); unchanged when absent (new ones: shared).
   * Refused (4000) for a mate that is not a member, or in a one-to-one chat.
   */
  mateId?: string | null;
}

/** Payload of `POST /room/deleteMemory`. */
export interface DeleteMemoryPayload {
  /** The room (the caller's own). */
  roomId: string;
  /** The memory to forget. */
  memoryId: string;
}

/** Payload of `POST /room/setMemoryAcrossChats`: the "Remember me across chats" setting. */
export interface SetMemoryAcrossChatsPayload {
  /** A room of the caller's with the mate the setting is for. */
  roomId: string;
  /** On: facts about the person go with them into their other chats with this mate. */
  enabled: boolean;
}

/** Every part a prompt is made of, in the order the prompt holds them. */
export const PROMPT_PART_KINDS = [
  'character',
  'lore',
  'pinned',
  'summary',
  'acrossChats',
  'recalled',
  'history',
  'instructions',
] as const;

/**
 * A part of a prompt: the `character` (the card, persona and language), the entries of the
 * card's lorebook the last messages called for (`lore`), `pinned` memories, the `summary`,
 * facts about the person from other chats (`acrossChats`), the other facts (`recalled`: all of
 * them, newest first, or where not all fit those most relevant to the last messages, which then
 * come after the history), the `history` of newest turns, and the card's post-history
 * `instructions`, which the model reads after the history. A prompt view lists its parts in the
 * order the prompt holds them.
 */
export type PromptPartKind = (typeof PROMPT_PART_KINDS)[number];

/** One part of a prompt and what it cost. */
export interface PromptPart {
  /** Which part. */
  kind: PromptPartKind;
  /** Its whole text as the model got it (turns of the history as `Name: text` lines). */
  text: string;
  /** Its length in the model's tokens. */
  tokens: number;
  /** For memories and turns: how many items it holds. */
  items: number;
}

/** The whole prompt of a chat's last reply, part by part ("What the mate sees"). */
export interface PromptView {
  /** The reply it was built for, or `null` when the chat has no reply yet. */
  messageId: string | null;
  /** The parts in order; parts with nothing in them are left out. */
  parts: PromptPart[];
  /** The sum of the parts' tokens. */
  totalTokens: number;
  /** The model's context, in tokens. */
  contextTokens: number;
  /** What is kept free for the reply, in tokens. */
  replyTokens: number;
  /**
   * How many messages of the chat were left out of the history (a summary, once written, tells
   * what they said).
   */
  leftOut: number;
  /** When it was built. */
  builtAt: IsoDateTime;
  /**
   * `false`: the very prompt the reply was written from. `true`: the server that wrote it no
   * longer holds it (a restart, another server), so it was built again from the chat as it is
   * now, memories included, which may have changed since.
   */
  rebuilt: boolean;
}

/** Query of `GET /room/promptView`. */
export interface PromptViewQuery {
  /** The room (the caller's own). */
  roomId: string;
}
