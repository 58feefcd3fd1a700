import { ProviderError, type ProviderFailure } from '../domain/provider-error';
/** One turn of a conversation as a model sees it. */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** How a generation ended. */
export interface GenerationResult {
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  /**
   * Of `promptTokens`, those the model did not read again because it held them from an earlier
   * generation (llama.cpp's KV cache, a provider's prompt cache), where it says.
   */
  cachedPromptTokens?: number;
}

/** Options of one generation. */
export interface GenerateOptions {
  /** Stops the generation; what was produced so far is kept. */
  signal: AbortSignal;
  /** At most this many tokens. */
  maxTokens: number;
  /** Sampling temperature; default 0.8. */
  temperature?: number;
  /** Constrain the output to JSON matching this schema (grammar or `response_format`). */
  jsonSchema?: Record<string, unknown>;
  /**
   * Texts that end the generation where the model writes them, left out of what it gives (the
   * provider's own stop sequences: OpenAI's `stop`, at most 4; llama.cpp's stop triggers).
   */
  stop?: string[];
  /**
   * Whose words the prompt holds (a person's id): a model that keeps what it read (the embedded
   * one) reads on from it for the same owner only. None: nothing of it is kept for anyone.
   */
  owner?: string;
}

/**
 * A language model: the embedded llama.cpp one or an OpenAI-compatible endpoint. `generate`
 * calls `onText` with each piece of text as it arrives and resolves when it ends.
 */
export interface LanguageModel {
  /**
   * Generates a reply to `turns`: the last is the person's, or a card's post-history
   * instructions (a system turn) right after it.
   */
  generate: (
    turns: ChatTurn[],
    options: GenerateOptions,
    onText: (text: string) => void,
  ) => Promise<GenerationResult>;
  /** Tokens in `text` (exact for the embedded model, estimated for remote ones). */
  countTokens: (text: string) => number;
  /** Tokens one conversation may hold, prompt and reply together. */
  contextSize: number;
  /**
   * Tokens the model's chat template adds around each turn (its role marks), where the model
   * knows its template (the embedded one, once loaded); prompts count 8 a turn otherwise.
   */
  turnTokens?: number;
  /** Why the model cannot answer now (still loading, not configured), or `null` when it can. */
  unavailableReason: () => string | null;
  /** For the start-up log. */
  describe: () => string;
  /**
   * Generations running and waiting for a slot, where the model queues them itself (the
   * embedded one); a remote provider's queue is its own and is not seen here.
   */
  load?: () => ModelLoad;
  /** Frees the model. */
  close: () => Promise<void>;
}

/** What {@link LanguageModel.load} answers. */
export interface ModelLoad {
  running: number;
  waiting: number;
}

/**
 * What went wrong with the language model, as people are told it (in their language, see
 * `chat/reply-texts.ts`).
 */
export type LanguageFailure = Extract<
  ProviderFailure,
  'unavailable' | 'unreachable' | 'busy' | 'failed' | 'timeout' | 'cut' | 'empty'
>;

/** Too many generations are waiting already. */
export class ModelBusyError extends ProviderError {
  override readonly name = 'ModelBusyError';
  constructor(message: string) {
    super(message, 'busy');
  }
}
