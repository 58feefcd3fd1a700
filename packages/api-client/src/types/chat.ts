import type { Message } from './room';
import type { UserBenefits } from './user';

/**
 * Payload of `POST /girl/chat/send`: a new user message, or `regenerate: true` to replace
 * the room's last mate reply (after an edit, the reply continues from the edited message).
 */
export type ChatSendPayload =
  | {
      /** The room. */
      roomId: string;
      /** The user's message, 1–8,000 characters. */
      content: string;
      /** Absent or false for a new message. */
      regenerate?: false;
    }
  | {
      /** The room. */
      roomId: string;
      /** Replace the last mate reply with a new one. */
      regenerate: true;
      /**
       * Answer this user message instead of the last one: every message after it is removed
       * first (after editing an earlier message, the conversation continues from there).
       */
      fromMessageId?: string;
      /** Not used when regenerating. */
      content?: undefined;
    };

/** Tokens spent on one reply. */
export interface ChatUsage {
  /** Tokens in the prompt. */
  promptTokens: number;
  /** Tokens generated. */
  completionTokens: number;
}

/** First event of a streamed reply. */
export interface ReplyStartEvent {
  /** Event name. */
  type: 'reply-start';
  /** The room. */
  roomId: string;
  /** The user's message as saved before generation, or `null` when regenerating. */
  userMessage: Message | null;
  /** The id the reply will be saved under. */
  messageId: string;
}

/** A piece of reply text, to append. */
export interface ReplyDeltaEvent {
  /** Event name. */
  type: 'reply-delta';
  /** Text to append to the reply. */
  text: string;
}

/** Last event of a reply that completed and was saved. */
export interface ReplyEndEvent {
  /** Event name. */
  type: 'reply-end';
  /** The saved reply's id. */
  messageId: string;
  /** Why generation stopped: the model finished, or it hit the length limit. */
  finishReason: 'stop' | 'length';
  /** Tokens spent. */
  usage: ChatUsage;
  /** The caller's benefits after this message. */
  benefits: UserBenefits;
}

/** The reply failed; what arrived before is saved as a partial message. */
export interface ReplyErrorEvent {
  /** Event name. */
  type: 'error';
  /** What went wrong, for people. */
  message: string;
  /** The saved partial reply, or `null` when nothing arrived. */
  messageId: string | null;
}

/** Any event of a streamed reply (docs/product.md, streamed reply). */
export type ChatStreamEvent = ReplyStartEvent | ReplyDeltaEvent | ReplyEndEvent | ReplyErrorEvent;

/** Payload of `POST /girl/chat/getInspiration`. */
export interface InspirationPayload {
  /** The room to suggest replies for. */
  roomId: string;
  /**
   * What to suggest: `reply` (the default) for messages the user could send next, `picture`
   * for descriptions of the current scene to draw with `POST /room/createImage`.
   */
  kind?: InspirationKind;
}

/** What `POST /girl/chat/getInspiration` suggests. */
export type InspirationKind = 'reply' | 'picture';

/** Answer of `POST /girl/chat/getInspiration`. */
export interface Inspiration {
  /**
   * Three short messages the user could send next, or (`kind: 'picture'`) up to three picture
   * prompts of the current scene, each at most 1,000 characters.
   */
  suggestions: string[];
}
