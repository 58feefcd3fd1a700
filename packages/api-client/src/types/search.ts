import type { MateSummary } from './mate';
import type { Message } from './room';

/** Query of `GET /room/searchMessages`: words in any message of the caller's chats. */
export interface SearchMessagesQuery {
  /** The words to find (1 to 100 characters); case and accents do not matter. */
  keyword: string;
  /** The 1-based page; default 1. */
  page?: number;
  /** Hits per page; default 20, at most 50. */
  pageSize?: number;
}

/** A piece of a hit's snippet: words as the message has them, `match` where they matched. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/** A message of the caller's that holds the words searched for. */
export interface MessageHit {
  /** The chat (the path of it) the message is in: open it at the message. */
  roomId: string;
  /** Who the chat is with; in a group, a mate's message is under the mate that wrote it. */
  mate: MateSummary;
  /** In a group chat, the group's name (what the chat is called); `null` in a one-to-one chat. */
  groupName: string | null;
  /** The message itself. */
  message: Message;
  /**
   * The words around the first match (about 160 characters), in order, the matching words
   * marked; `…` at a cut end.
   */
  snippet: SnippetPart[];
}

/** A page of message hits, newest message first. */
export interface MessageHits {
  list: MessageHit[];
  /** The 1-based number of this page. */
  page: number;
  /** The page size the server used. */
  pageSize: number;
  /** Whether a later page exists (the whole count is not worked out: it may be large). */
  hasMore: boolean;
}
