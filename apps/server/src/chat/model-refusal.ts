import type { LanguageModel } from '../llm/language-model';
import { MODEL_LOADING } from '../llm/embedded';
import { REASON, refused } from '../domain/errors';

/** How soon (seconds) a client may ask again while the model is still loading. */
export const MODEL_LOADING_RETRY_SECONDS = 2;

/**
 * Refuses, before anything is written or spent, when the model cannot answer now. The person
 * is told what it means for them, in their language (it is still starting, or it is not
 * available); a model that is missing says so in one word (`d.reason`, `model-missing`), so
 * that the chat can tell which setting sets one up. The detail (which file) is in the log.
 * A model still loading will be ready soon: the refusal says when to ask again (`Retry-After`),
 * so the web app sends the message by itself then.
 */
export function requireModel(model: LanguageModel): void {
  const unavailable = model.unavailableReason();
  if (!unavailable) return;
  if (unavailable === MODEL_LOADING)
    throw refused('reply.loading', {}, { retryAfterSeconds: MODEL_LOADING_RETRY_SECONDS });
  throw refused('reply.unavailable', {}, { reason: REASON.modelMissing });
}
