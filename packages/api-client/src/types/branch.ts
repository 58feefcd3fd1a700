import type { IsoDateTime } from './common';

/** Where a branch left the path it was made from. */
export interface BranchFork {
  /** The path it was branched from (`null` once that path was deleted). */
  parentRoomId: string | null;
  /** The message of that path it was branched at (the last one they share). */
  parentMessageId: string;
  /** The same message in this path (its copy): where this path's switcher stands. */
  messageId: string;
}

/** One path of a chat: the first one, or a branch made from another at one of its messages. */
export interface Branch {
  /** The path is a room of its own: open it by this id. */
  roomId: string;
  /** Where it was branched, or `null` for the chat's first path. */
  fork: BranchFork | null;
  /** How many messages it holds. */
  messageCount: number;
  /** The start of its newest message, for telling paths apart (at most 140 characters). */
  preview: string;
  /** When it was made. */
  createdAt: IsoDateTime;
  /** When it last changed. */
  updatedAt: IsoDateTime;
}

/** Every path of the chat a room belongs to. */
export interface RoomBranches {
  /** The room asked about. */
  roomId: string;
  /** All paths, oldest first (the first path first). */
  branches: Branch[];
}

/** Payload of `POST /room/branch`: "Branch from here". */
export interface BranchPayload {
  /** The room (the caller's own). */
  roomId: string;
  /**
   * The message to branch at: the new path holds the room's messages up to and including it
   * (copies, with the memories made from them only), and goes on from there.
   */
  messageId: string;
}

/** Every format a chat path can be exported in. */
export const CHAT_EXPORT_FORMATS = ['json', 'markdown', 'jsonl'] as const;

/**
 * A format of `GET /room/exportChat`: `json` (Mates' own: the room, the mate, every message
 * with its versions, and the path's memories in `memories`, each a `Memory`), `markdown` (to
 * read, its memories after its messages), or `jsonl` (SillyTavern's chat file: a header line,
 * then one line per message with its swipes; no memories).
 */
export type ChatExportFormat = (typeof CHAT_EXPORT_FORMATS)[number];

/** Query of `GET /room/exportChat`. */
export interface ExportChatQuery {
  /** The room (a path of a chat; the caller's own). */
  roomId: string;
  /** The format. */
  format: ChatExportFormat;
}

/** A path of a chat as a file to download. */
export interface ChatExport {
  /** A file name for it, e.g. `Lyra - 2026-11-29.md`. */
  fileName: string;
  /** Its media type (`application/json`, `text/markdown`, `application/jsonl`). */
  mimeType: string;
  /** The file's text (UTF-8). */
  content: string;
}
