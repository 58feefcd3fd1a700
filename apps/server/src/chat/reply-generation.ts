import type { ChatTurn, GenerationResult, LanguageModel } from '../llm/language-model';

/**
 * A reply being generated, whose text is held until someone reads it: the provider request
 * can then be opened while the turn is still being written, and nothing it sends is lost.
 */
export interface ReplyGeneration {
  /** Hands the text so far, then each new piece as it arrives, to `onText`. */
  read: (onText: (piece: string) => void) => void;
  /** Settles with the provider's result or its failure (never an unhandled rejection). */
  settled: Promise<{ ok: true; result: GenerationResult } | { ok: false; error: unknown }>;
  /** Stops the generation (its `signal` ends it too). */
  stop: (reason?: unknown) => void;
}

/**
 * Starts generating a reply to `turns` now; `signal` stops it. A reply that opens with its
 * `speaker`'s name and a colon ("Lyra: Hello") is read without them: small models open so,
 * writing their turn as the history's lines are written.
 */
export function startGeneration(
  model: LanguageModel,
  turns: ChatTurn[],
  options: { maxTokens: number; signal: AbortSignal; stop?: string[]; speaker?: string },
): ReplyGeneration {
  // The caller's signal is forwarded by hand: AbortSignal.any took some 50 µs a call on Node 20.
  const stopper = new AbortController();
  const { signal } = stopper;
  const forward = () => stopper.abort(options.signal.reason);
  if (options.signal.aborted) forward();
  else options.signal.addEventListener('abort', forward, { once: true });
  let held: string[] | null = [];
  let reader: ((piece: string) => void) | null = null;
  const hand = (piece: string) => {
    if (reader) reader(piece);
    else held!.push(piece);
  };
  const opening = options.speaker ? withoutName(`${options.speaker}:`, hand) : null;
  const onText = (sent: string) => {
    // U+0000 from a model is dropped: PostgreSQL cannot store it, and it means nothing in text.
    const piece = sent.includes('\0') ? sent.replaceAll('\0', '') : sent;
    if (!piece) return;
    if (opening) opening.write(piece);
    else hand(piece);
  };
  // A reader gone before the reply began (a regeneration whose stream found its caller gone)
  // wants nothing of the provider: it is not asked.
  const generated = options.signal.aborted
    ? Promise.resolve<GenerationResult>({
        finishReason: 'stop',
        promptTokens: 0,
        completionTokens: 0,
      })
    : model.generate(
        turns,
        { signal, maxTokens: options.maxTokens, ...(options.stop && { stop: options.stop }) },
        onText,
      );
  const settled = generated
    // A reply shorter than the name ("Ly") is handed on as it is, once it has ended.
    .finally(() => opening?.end())
    .then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    )
    .finally(() => options.signal.removeEventListener('abort', forward));
  return {
    read: (onPiece) => {
      const before = held ?? [];
      held = null;
      reader = onPiece;
      for (const piece of before) onPiece(piece);
    },
    settled,
    stop: (reason) => stopper.abort(reason),
  };
}

/**
 * Hands text on without `label` ("Lyra:") at its start, nor the white space after it. Only the
 * opening is held, while it could still be the label; `end` hands on what is held then.
 */
function withoutName(label: string, hand: (piece: string) => void) {
  let state: 'opening' | 'afterName' | 'through' = 'opening';
  let opening = '';
  const write = (piece: string): void => {
    if (state === 'through') return hand(piece);
    if (state === 'afterName') {
      const text = piece.trimStart();
      if (!text) return;
      state = 'through';
      return hand(text);
    }
    opening += piece;
    // White space before the name goes on at once: only what could be the name is held.
    const start = opening.trimStart();
    if (start.length < opening.length) hand(opening.slice(0, opening.length - start.length));
    opening = start;
    if (opening.startsWith(label)) {
      state = 'afterName';
      return write(opening.slice(label.length));
    }
    if (label.startsWith(opening)) return;
    state = 'through';
    hand(opening);
  };
  return {
    write,
    end: () => {
      if (state === 'opening' && opening) hand(opening);
      state = 'through';
    },
  };
}
