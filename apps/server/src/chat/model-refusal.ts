import type { LanguageModel } from '../llm/language-model';
import { MODEL_LOADING } from '../llm/embedded';
import { notice } from '../http/envelope';
import { textsFor } from '../i18n/texts';

/**
 * Refuses, before anything is written or spent, when the model cannot answer now. The person
 * is told what it means for them, in their language (it is still starting, or it is not
 * available); why it is not available (a missing file, a setting) is the operator's, in the log.
 */
export function requireModel(model: LanguageModel, language: string): void {
  const unavailable = model.unavailableReason();
  if (!unavailable) return;
  const texts = textsFor(language);
  throw notice(unavailable === MODEL_LOADING ? texts('reply.loading') : texts('reply.unavailable'));
}
