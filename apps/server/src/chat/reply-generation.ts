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
 * writing their turn as the history's lines are written. The reply ends before the first of
 * `stop` it writes, here as well as by the provider: a model that refuses stop sequences (the
 * reasoning ones) or a server that ignores them would otherwise go on to write the person's
 * next line.
 */
export function startGeneration(
  model: LanguageModel,
  turns: ChatTurn[],
  options: {
    maxTokens: number;
    signal: AbortSignal;
    stop?: string[];
    speaker?: string;
    /** Whose chat it is (see `GenerateOptions.owner`). */
    owner?: string;
  },
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
  const named = opening ? opening.write : hand;
  // Ended there, the reply is whole: the provider is stopped as a provider stops at its own.
  const ending = options.stop?.length
    ? untilStop(options.stop, named, () => stopper.abort(new StopSequenceWritten()))
    : null;
  const onText = (sent: string) => {
    // U+0000 from a model is dropped: PostgreSQL cannot store it, and it means nothing in text.
    const piece = sent.includes('\0') ? sent.replaceAll('\0', '') : sent;
    if (!piece) return;
    if (ending) ending.write(piece);
    else named(piece);
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
        {
          signal,
          maxTokens: options.maxTokens,
          ...(options.stop && { stop: options.stop }),
          ...(options.owner !== undefined && { owner: options.owner }),
        },
        onText,
      );
  const settled = generated
    // A reply shorter than the name ("Ly") is handed on as it is, once it has ended.
    .finally(() => {
      ending?.end();
      opening?.end();
    })
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

/** Why a generation was stopped when its reply wrote one of its stop sequences. */
class StopSequenceWritten extends Error {
  constructor() {
    super('the reply wrote one of its stop sequences');
    this.name = 'StopSequenceWritten';
  }
}

/**
 * Hands text on as far as the first of `stops` in it, left out with all after it, then calls
 * `onStop` once. Only text that could still begin one of them is held (after a line break, for
 * `\nAda:`); `end` hands on what is held then.
 */
function untilStop(stops: string[], hand: (piece: string) => void, onStop: () => void) {
  const starts = [...new Set(stops.map((stop) => stop[0]!))];
  let held = '';
  let stopped = false;
  return {
    write(piece: string): void {
      if (stopped) return;
      const text = held + piece;
      held = '';
      if (!starts.some((start) => text.includes(start))) return hand(text);
      let end = -1;
      for (const stop of stops) {
        const at = text.indexOf(stop);
        if (at >= 0 && (end < 0 || at < end)) end = at;
      }
      if (end >= 0) {
        stopped = true;
        if (end > 0) hand(text.slice(0, end));
        onStop();
        return;
      }
      // The longest end of the text that one of them begins with waits for what follows.
      let keep = 0;
      for (const stop of stops)
        for (let length = Math.min(stop.length - 1, text.length); length > keep; length--)
          if (text.endsWith(stop.slice(0, length))) {
            keep = length;
            break;
          }
      if (keep < text.length) hand(text.slice(0, text.length - keep));
      held = text.slice(text.length - keep);
    },
    end(): void {
      if (!stopped && held) hand(held);
      held = '';
    },
  };
}
