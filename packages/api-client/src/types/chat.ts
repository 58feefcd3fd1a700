import type { Message } from './room';
import type { UserBenefits } from './user';

/**
 * Payload of `POST /girl/chat/send`: a new user message, or `regenerate: true` to replace
 * the room's last mate reply (after an edit, the reply continues from the edited message),
 * or, in a group chat, `next: true` for one more reply without a message of the person.
 */
export type ChatSendPayload =
  | {
      /** The room. */
      roomId: string;
      /** The user's message, 1–8,000 characters. */
      content: string;
      /** Absent or false for a new message. */
      regenerate?: false;
      /** Not used with a message. */
      next?: undefined;
    }
  | {
      /** The room (a group chat). */
      roomId: string;
      /**
       * One more reply, without a message of the person: "Continue" (the next speaker by the
       * group's order) or, with `speakerId`, "Let X speak".
       */
      next: true;
      /** The member to speak (muted or not); absent for the next by the group's order. */
      speakerId?: string;
      /** Not used. */
      content?: undefined;
      /** Not used. */
      regenerate?: undefined;
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
      /** Not used when regenerating. */
      next?: undefined;
    };

/** Tokens spent on one reply. */
export interface ChatUsage {
  /** Tokens in the prompt. */
  promptTokens: number;
  /** Tokens generated. */
  completionTokens: number;
}

/**
 * First event of a streamed reply. In a group chat one stream may carry several replies, one
 * after another (each from its `reply-start` to its `reply-end`), each by its speaker.
 */
export interface ReplyStartEvent {
  /** Event name. */
  type: 'reply-start';
  /** The room. */
  roomId: string;
  /**
   * The user's message as saved before generation (on a stream's first reply only), or `null`
   * when regenerating, going on without one, or on a group's later replies.
   */
  userMessage: Message | null;
  /** The id the reply will be saved under. */
  messageId: string;
  /** In a group chat, the mate writing this reply; absent in a one-to-one chat. */
  speakerId?: string;
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

/**
 * In a group chat, the person's message was saved and no mate answers it on its own (manual
 * order, or every member muted): the stream's only event. The person lets a mate speak next.
 */
export interface MessageSavedEvent {
  /** Event name. */
  type: 'message-saved';
  /** The room. */
  roomId: string;
  /** The person's message as saved. */
  userMessage: Message;
}

/** Any event of a streamed reply (docs/product.md, streamed reply). */
export type ChatStreamEvent =
  ReplyStartEvent | ReplyDeltaEvent | ReplyEndEvent | ReplyErrorEvent | MessageSavedEvent;

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
