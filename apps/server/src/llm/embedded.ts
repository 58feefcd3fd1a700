import fs from 'node:fs';
import type {
  ChatHistoryItem,
  Llama,
  LlamaChatSession,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import type * as LlamaCpp from 'node-llama-cpp';
import {
  ModelBusyError,
  type ChatTurn,
  type GenerateOptions,
  type LanguageModel,
} from './language-model';
import { ProviderError } from '../domain/provider-error';
import type { Logger } from '../logging/logger';

/**
 * A prompt's turns as a llama.cpp chat session takes them: the history it is given, and the
 * text it is asked to answer (the last turn). What comes after the turn being answered (the
 * facts recalled for it, the card's post-history instructions) is a system turn (see
 * `buildPrompt`); a session's prompt is always the person's side, so it ends its text.
 */
export function sessionTurns(turns: ChatTurn[]): { history: ChatTurn[]; prompt: string } {
  const instructions = turns.length > 2 && turns.at(-1)!.role === 'system' ? turns.at(-1)! : null;
  const asked = instructions ? turns.slice(0, -1) : turns;
  const last = asked.at(-1)!;
  return {
    history: asked.slice(0, -1),
    prompt: instructions ? `${last.content}\n\n${instructions.content}` : last.content,
  };
}

/** Options of {@link createEmbeddedModel}. */
export interface EmbeddedModelOptions {
  /** A GGUF file path, or an `hf:` URI downloaded once into `modelsDir`. */
  model: string;
  modelsDir: string;
  /** A Hugging Face mirror for `hf:` URIs; default Hugging Face. */
  huggingFaceEndpoint?: string;
  /** Always explicit: the library's default of 4 threads is ruinous on 2 cores. */
  threads: number;
  /** Tokens per conversation. */
  contextSize: number;
  /** Conversations generated at once; each has its own context sequence. */
  parallel: number;
  /** Conversations that may wait for a free sequence; more are refused. */
  queue: number;
  log: Logger;
}

/** What an embedded model says while it loads (`unavailableReason`), for the operator's log. */
export const MODEL_LOADING = 'The language model is loading. Please try again in a moment.';

/**
 * A context sequence and the turns it holds evaluated: its KV cache, which the next
 * generation on it takes up as far as its prompt begins the same way.
 */
interface Slot {
  sequence: LlamaContextSequence;
  /** What the sequence last read and wrote: its history, prompt and reply, in order. */
  turns: ChatTurn[];
  /** Whose words those are ({@link GenerateOptions.owner}); `undefined`: nobody's to reuse. */
  owner: string | undefined;
  /** When it was last given back (a counter): the longest unused goes first to a stranger. */
  usedAt: number;
}

/** How many of `turns` begin as `held` does, turn by turn. */
function sharedTurns(held: ChatTurn[], turns: ChatTurn[]): number {
  let shared = 0;
  while (
    shared < held.length &&
    shared < turns.length &&
    held[shared]!.role === turns[shared]!.role &&
    held[shared]!.content === turns[shared]!.content
  )
    shared += 1;
  return shared;
}

/**
 * How many turns of `slot` a generation of `owner`'s on `turns` takes up: all it shares when it
 * goes on from what the slot holds, else none. It goes on when it shares all of it but the
 * reply (saved other than written, or regenerated), or all but the reply and the message
 * before it, where that was sent with a system turn after it (the recalled facts, the card's
 * instructions: see {@link sessionTurns}). Another's words, or nobody's, are never taken up.
 */
function continued(slot: Slot, turns: ChatTurn[], owner: string | undefined): number {
  const held = slot.turns;
  if (owner === undefined || slot.owner !== owner || held.length === 0) return 0;
  const shared = sharedTurns(held, turns);
  if (shared >= held.length - 1) return shared;
  const [sent, now] = [held[shared], turns[shared]];
  const withTurnAfter =
    shared === held.length - 2 &&
    sent?.role === 'user' &&
    now?.role === 'user' &&
    sent.content.startsWith(`${now.content}\n\n`);
  return withTurnAfter ? shared : 0;
}

/**
 * The free slot for `turns`: the one holding the conversation they go on (it comes back to the
 * sequence that read its beginning), else an empty one, else the one unused longest, so that
 * a conversation just answered keeps its cache for its next message.
 */
function closestSlot(free: Slot[], turns: ChatTurn[], owner: string | undefined): Slot | undefined {
  let best: Slot | undefined;
  let bestRank: [number, number, number] = [-1, -1, -1];
  for (const slot of free) {
    const rank: [number, number, number] = [
      continued(slot, turns, owner),
      slot.turns.length === 0 ? 1 : 0,
      -slot.usedAt,
    ];
    const better = rank.findIndex((value, index) => value !== bestRank[index]);
    if (better >= 0 && rank[better]! > bestRank[better]!) {
      best = slot;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * The tokens `model`'s chat template adds around a turn, on average over a made-up chat of
 * twenty-one turns (its role marks, the start of a reply): what a prompt counts for each turn
 * beside its text, so that one built to fit the context does fit once templated. Past the
 * context, llama.cpp would drop the oldest history itself, unseen by the prompt's report.
 */
function templateTokensPerTurn(llamaCpp: typeof LlamaCpp, model: LlamaModel): number | undefined {
  const wrapper = llamaCpp.resolveChatWrapper(model);
  if (!wrapper) return undefined;
  const system = 'You are Lyra, a librarian.';
  const history: ChatHistoryItem[] = [{ type: 'system', text: system }];
  let written = model.tokenize(system).length;
  for (let turn = 0; turn < 10; turn += 1) {
    const [question, answer] = [`Where is book ${turn}?`, `On shelf ${turn}, by the window.`];
    history.push({ type: 'user', text: question }, { type: 'model', response: [answer] });
    written += model.tokenize(question).length + model.tokenize(answer).length;
  }
  const templated = wrapper
    .generateContextState({ chatHistory: history })
    .contextText.tokenize(model.tokenizer).length;
  return Math.max(0, (templated - written) / history.length);
}

/**
 * llama.cpp in-process: one model loaded once, `parallel` context sequences, and a FIFO
 * queue of at most `queue` waiting generations. Loading (and, for an `hf:` URI, the first
 * download) happens in the background: the server starts at once, and chat says what is
 * happening until the model is ready.
 *
 * A sequence keeps what it evaluated after a generation (llama.cpp's KV cache), and the next
 * one on it reads only where its prompt differs from that: a conversation's next message costs
 * its new words, not the whole card and history again (a prompt is the same turns, one reply
 * and one message longer). A generation takes the free sequence holding the conversation it
 * goes on, else an empty one, else the one unused longest. Only the same owner's words are read
 * on (a person's, `GenerateOptions.owner`): a sequence that held another's, or nobody's, is
 * emptied first, so no one's time to first token or cached count says anything of another's
 * chat. llama.cpp keeps only the tokens the new prompt shares, and evaluates the rest as if the
 * sequence were new (what it writes differs from a fresh read by rounding only).
 */
export function createEmbeddedModel(
  options: EmbeddedModelOptions,
): LanguageModel & { ready: Promise<void> } {
  // node-llama-cpp is loaded with the model, not with this module: other parts import this
  // module's texts, and a server on a hosted model never holds llama.cpp (~28 MB resident).
  let llamaCpp: typeof LlamaCpp | undefined;
  let llama: Llama | undefined;
  let model: LlamaModel | undefined;
  let context: LlamaContext | undefined;
  let status = MODEL_LOADING;
  const free: Slot[] = [];
  const waiting: ((slot: Slot) => void)[] = [];
  let uses = 0;
  let turnTokens: number | undefined;

  const ready = (async () => {
    try {
      llamaCpp = await import('node-llama-cpp');
      const { getLlama, resolveModelFile } = llamaCpp;
      const modelPath = options.model.startsWith('hf:')
        ? await resolveModelFile(options.model, {
            directory: options.modelsDir,
            // A progress bar in the console on the first start; later starts find the file.
            cli: true,
            verify: false,
            ...(options.huggingFaceEndpoint
              ? { endpoints: { huggingFace: options.huggingFaceEndpoint } }
              : {}),
          })
        : options.model;
      if (!fs.existsSync(modelPath)) throw new Error(`no file at ${modelPath}`);
      llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' as never });
      model = await llama.loadModel({ modelPath });
      const contextSize = Math.min(options.contextSize, model.trainContextSize);
      context = await model.createContext({
        contextSize,
        sequences: options.parallel,
        threads: options.threads,
      });
      for (let index = 0; index < options.parallel; index += 1)
        free.push({ sequence: context.getSequence(), turns: [], owner: undefined, usedAt: 0 });
      try {
        turnTokens = templateTokensPerTurn(llamaCpp, model);
      } catch (error) {
        // Prompts count their usual margin a turn; the model answers all the same.
        options.log.warn(
          `could not measure the chat template's tokens a turn: ${(error as Error).message}`,
        );
      }
      status = '';
      options.log.info(
        `language model ready: ${modelPath} (${options.parallel} at once, ${options.threads} threads, ${contextSize} tokens each)`,
      );
    } catch (error) {
      status = `No language model is available (${(error as Error).message}). Set LLM_MODEL to a GGUF file or an hf: URI, or LLM_PROVIDER=openai with LLM_BASE_URL.`;
      options.log.error(status);
    }
  })();

  /**
   * `slot`'s sequence made empty; one that cannot be is replaced by a new sequence (it could hold
   * anything: nothing may read on from it).
   */
  async function emptied(slot: Slot): Promise<void> {
    slot.turns = [];
    slot.owner = undefined;
    try {
      await slot.sequence.clearHistory();
    } catch (error) {
      options.log.warn(
        `could not empty a llama.cpp sequence, replaced: ${(error as Error).message}`,
      );
      // Never thrown: the slot goes back to the pool whatever happens (a replacement that
      // cannot be made leaves a sequence whose next generation fails, said as any failure).
      try {
        await Promise.resolve(slot.sequence.dispose()).catch(() => undefined);
        slot.sequence = context!.getSequence();
      } catch (replacing) {
        options.log.error(
          `could not replace a llama.cpp sequence: ${(replacing as Error).message}`,
        );
      }
    }
  }

  async function acquire(
    turns: ChatTurn[],
    owner: string | undefined,
    signal: AbortSignal,
  ): Promise<Slot> {
    // Aborted already: it would wait for a slot that nobody wants (its listener never called).
    signal.throwIfAborted();
    const slot = closestSlot(free, turns, owner);
    if (slot) {
      free.splice(free.indexOf(slot), 1);
      return slot;
    }
    if (waiting.length >= options.queue)
      throw new ModelBusyError('Every conversation slot is busy. Please try again in a moment.');
    return new Promise((resolve, reject) => {
      const take = (next: Slot) => resolve(next);
      waiting.push(take);
      signal.addEventListener(
        'abort',
        () => {
          const index = waiting.indexOf(take);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  function release(slot: Slot): void {
    uses += 1;
    slot.usedAt = uses;
    const next = waiting.shift();
    if (next) next(slot);
    else free.push(slot);
  }

  const toHistory = (turns: ChatTurn[]): ChatHistoryItem[] =>
    turns.map((turn) =>
      turn.role === 'assistant'
        ? { type: 'model', response: [turn.content] }
        : { type: turn.role, text: turn.content },
    );

  return {
    ready,
    // What each sequence really holds once loaded (bounded by what the model was trained on).
    get contextSize() {
      return context?.contextSize ?? options.contextSize;
    },
    get turnTokens() {
      return turnTokens;
    },
    unavailableReason: () => (status === '' ? null : status),
    describe: () => `embedded llama.cpp (${options.model})`,
    load: () => ({
      running: context ? options.parallel - free.length : 0,
      waiting: waiting.length,
    }),
    countTokens: (text) => (model ? model.tokenize(text).length : Math.ceil(text.length / 4)),
    async generate(turns, generateOptions: GenerateOptions, onText) {
      const reason = status === '' ? null : status;
      if (reason || !model || !llamaCpp)
        throw new ProviderError(reason ?? 'The language model is not ready.', 'unavailable');
      const { owner } = generateOptions;
      const slot = await acquire(turns, owner, generateOptions.signal);
      const { history, prompt } = sessionTurns(turns);
      let session: LlamaChatSession | undefined;
      let reply = '';
      let ended = false;
      try {
        // Another's words (or nobody's) are not read on: the sequence starts empty.
        if (slot.turns.length > 0 && (owner === undefined || slot.owner !== owner))
          await emptied(slot);
        const { sequence } = slot;
        session = new llamaCpp.LlamaChatSession({
          contextSequence: sequence,
          autoDisposeSequence: false,
        });
        session.setChatHistory(toHistory(history));
        const grammar =
          generateOptions.jsonSchema && llama
            ? await llama.createGrammarForJsonSchema(generateOptions.jsonSchema as never)
            : undefined;
        const read = sequence.tokenMeter.usedInputTokens;
        const written = sequence.tokenMeter.usedOutputTokens;
        const { stopReason } = await session.promptWithMeta(prompt, {
          maxTokens: generateOptions.maxTokens,
          temperature: generateOptions.temperature ?? 0.8,
          signal: generateOptions.signal,
          stopOnAbortSignal: true,
          grammar,
          ...(generateOptions.stop?.length && { customStopTriggers: generateOptions.stop }),
          onTextChunk: (text) => {
            reply += text;
            onText(text);
          },
        });
        ended = true;
        // The prompt as the model read it (its chat template's tokens too): what the sequence
        // holds, less what it wrote; what it did not evaluate now came from its cache.
        const completionTokens = sequence.tokenMeter.usedOutputTokens - written;
        const promptTokens = Math.max(0, sequence.contextTokens.length - completionTokens);
        const evaluated = sequence.tokenMeter.usedInputTokens - read;
        return {
          finishReason: stopReason === 'maxTokens' ? 'length' : 'stop',
          promptTokens,
          completionTokens,
          cachedPromptTokens: Math.max(0, promptTokens - evaluated),
        };
      } finally {
        session?.dispose({ disposeSequence: false });
        if (ended) {
          slot.turns = [...history, { role: 'user', content: prompt }];
          if (reply) slot.turns.push({ role: 'assistant', content: reply });
          slot.owner = owner;
        } else {
          // Failed midway: what the sequence holds is not known, so it holds nothing.
          await emptied(slot);
        }
        release(slot);
      }
    },
    async close() {
      await ready;
      await context?.dispose();
      await model?.dispose();
      await llama?.dispose();
    },
  };
}
