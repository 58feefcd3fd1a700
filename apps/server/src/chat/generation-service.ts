import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ChatTurn } from '../llm/language-model';
import type { Logger } from '../logging/logger';
import { refundChat, spendChat, type Movement } from '../accounts/benefits';
import type { Reason } from '../accounts/ledger-reasons';
import { ProviderError } from '../domain/provider-error';
import { refused } from '../domain/errors';
import type { SentenceKey } from '../i18n/texts';
import type { ChatService } from './chat-service';
import { requireSpentChat } from './turn-service';

/** What the model's help with writing (suggestions, character drafts) needs from the server. */
export interface GenerationDeps {
  db: Kysely<Database>;
  /** The language model. */
  chat: ChatService;
}

/** The caller's request, as far as a generation needs it. */
export interface GenerationRequest {
  /** Aborted when the caller leaves: the model stops. */
  signal: AbortSignal;
  /** The request's logger (a provider's failure in detail). */
  log: Logger;
}

/**
 * Runs `work` for one chat: spent before the model runs (so parallel calls cannot overdraw),
 * given back when `work` fails, since the user then got nothing for it (`spend.refund` says so
 * in the ledger).
 */
export async function forOneChat<T>(
  db: Kysely<Database>,
  userId: string,
  spend: Omit<Movement, 'kind'> & { refund: Reason },
  work: () => Promise<T>,
): Promise<T> {
  requireSpentChat(await db.transaction().execute((trx) => spendChat(trx, userId, spend)));
  try {
    return await work();
  } catch (error) {
    await db.transaction().execute((trx) =>
      refundChat(trx, userId, {
        reason: spend.refund,
        reference: spend.reference,
      }),
    );
    throw error;
  }
}

/**
 * Runs the model to completion and returns its text. A provider failure is refused (5007) with
 * a plain sentence; its detail (a provider's body, host names) is logged.
 */
export async function completeText(
  deps: GenerationDeps,
  turns: ChatTurn[],
  options: { maxTokens: number; jsonSchema: Record<string, unknown> },
  request: GenerationRequest,
): Promise<string> {
  let text = '';
  try {
    await deps.chat.model.generate(
      turns,
      { ...options, signal: request.signal, temperature: 0.9 },
      (piece) => (text += piece),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    request.log.warn(`generation failed: ${error.message}`);
    throw refused(`reply.${error.failure}` as SentenceKey);
  }
  return text;
}

/** `text` read as JSON, or `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
