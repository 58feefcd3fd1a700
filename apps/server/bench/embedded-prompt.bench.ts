// What a chat's next message costs the embedded model as the chat grows, and once it no longer
// fits the context (#38). Three ways in the same run, each on a llama.cpp model of its own (one
// sequence, one thread):
// - now: the sequence that holds the chat answers its next message, and the prompt is built as
//   a send builds it (`fittingTurns`: once the chat no longer fits, its history starts where the
//   last prompt's did while that fits, then moves on past a quarter of its room);
// - kept sequence, start moved at each send: the same sequence, the prompt holding as much of
//   the newest history as fits (`buildTurns`, as prompts were built before), whose start moves
//   on by a message or two at each send once the chat is full;
// - read from the start: the "now" prompt once the sequence holds another conversation, as every
//   send read its prompt before sequences were kept;
// - with memories: the "now" prompt of the same chat once it has memories (a pinned fact, a
//   summary, eight facts recalled in another order at each message), on a model of its own.
// 12-token replies at temperature 0, a card of about 700 characters, a 2,048-token context;
// the chat grows by a message and a reply a turn. LLM_MODEL (a GGUF file; default the tiny model
// of the tests) and BENCH_TURNS (default 60) vary it. Prints medians over spans of turns (time
// to first token, prompt tokens read anew) and saves bench/results/embedded-prompt.json.
import os from 'node:os';
import { createEmbeddedModel } from '../src/llm/embedded';
import type { ChatTurn, GenerationResult } from '../src/llm/language-model';
import { buildTurns, type PromptMemory, type PromptSource } from '../src/chat/prompt';
import { fittingTurns, promptHold, type PromptHold } from '../src/chat/conversation';
import { silentLogger } from '../src/logging/logger';
import { historyReader, TEST_GGUF } from '../test/harness';
import { saveResults, type ResultRow } from './results';

const MODEL = process.env.LLM_MODEL ?? TEST_GGUF;
const TURNS = Number(process.env.BENCH_TURNS ?? 60);
const REPLY_TOKENS = 12;
const CONTEXT = 2048;

const loaded = () => {
  const one = createEmbeddedModel({
    model: MODEL,
    modelsDir: os.tmpdir(),
    threads: 1,
    contextSize: CONTEXT,
    parallel: 1,
    queue: 1,
    log: silentLogger(),
  });
  return one.ready.then(() => {
    if (one.unavailableReason()) throw new Error(one.unavailableReason()!);
    return one;
  });
};
const now = await loaded();
const moved = await loaded();
const remembering = await loaded();

const mate = {
  name: 'Lyra',
  description:
    'Lyra Moonwhisper keeps a lighthouse library on a windy northern coast. She speaks softly, ' +
    'loves old maps and sea stories, and remembers every visitor by the book they borrowed. '.repeat(
      4,
    ),
  personality: 'gentle, curious, patient',
  scenario: 'A stormy night; {{user}} comes in from the rain.',
  mes_example: '',
  system_prompt: '',
};
/** The chat so far, oldest first, each message at its position in the room (its index). */
const history: PromptSource['history'] = [
  { role: 'mate', content: 'Welcome in from the rain. Which story shall we find tonight?' },
];
const card = { mate, persona: null, userName: 'Ada', seed: 'bench' };
/**
 * Prompts built as a send builds them, on `model`, each told of the last (`promptHold`) as a
 * room's are; `memoryAt(turn)` is what the room remembers at each.
 */
const promptsAsSent = (model: typeof now, memoryAt?: (turn: number) => PromptMemory) => {
  let hold: PromptHold = {};
  return async (turn: number) => {
    const source = memoryAt ? { ...card, memory: memoryAt(turn) } : card;
    const prompt = await fittingTurns(historyReader(source, history), model, REPLY_TOKENS, hold);
    hold = promptHold(prompt);
    return prompt.turns;
  };
};
const promptNow = promptsAsSent(now);
const stranger: ChatTurn[] = [{ role: 'user', content: 'Say something short.' }];

const FACTS = Array.from(
  { length: 8 },
  (_, index) =>
    `Ada told Lyra about the ${['red', 'grey', 'blue'][index % 3]} boat number ${index}.`,
);
/** What the room remembers at `turn`: its facts recalled in another order at each message. */
const memoryAt = (turn: number): PromptMemory => ({
  pinned: ['Ada is afraid of deep water.'],
  summary: 'Ada came in from the storm; Lyra showed her the maps of the northern coast.',
  acrossChats: [],
  recalled: [...FACTS.slice(turn % FACTS.length), ...FACTS.slice(0, turn % FACTS.length)],
  newest: FACTS,
});
const promptWithMemory = promptsAsSent(remembering, memoryAt);

/** One answer: its time to first text, the prompt's tokens and those read anew. */
async function ask(model: typeof now, prompt: ChatTurn[], owner = 'ada') {
  const started = performance.now();
  let first = NaN;
  let text = '';
  const result: GenerationResult = await model.generate(
    prompt,
    { signal: new AbortController().signal, maxTokens: REPLY_TOKENS, temperature: 0, owner },
    (piece) => {
      if (Number.isNaN(first)) first = performance.now() - started;
      text += piece;
    },
  );
  return {
    text,
    firstMs: first,
    promptTokens: result.promptTokens,
    read: result.promptTokens - (result.cachedPromptTokens ?? 0),
  };
}

type Asked = Awaited<ReturnType<typeof ask>>;
const measured: { turn: number; now: Asked; moved: Asked; fresh: Asked; memory: Asked }[] = [];
for (let turn = 1; turn <= TURNS; turn += 1) {
  history.push({ role: 'user', content: `Turn ${turn}: tell me what happened next at the shore.` });
  const turns = await promptNow(turn);
  const asked = {
    turn,
    now: await ask(now, turns),
    moved: await ask(moved, buildTurns({ ...card, language: 'en', history }, moved, REPLY_TOKENS)),
    // The same prompt as "now" once the sequence holds another conversation.
    fresh: await ask(now, stranger, 'bo').then(() => ask(now, turns)),
    memory: await ask(remembering, await promptWithMemory(turn)),
  };
  measured.push(asked);
  history.push({ role: 'mate', content: asked.now.text.trim() || '…' });
}
await now.close();
await moved.close();
await remembering.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const round1 = (value: number) => Math.round(value * 10) / 10;
const spans = [
  [1, 10],
  [11, 20],
  [21, 30],
  [31, 45],
  [46, 60],
  [61, 80],
  [81, 100],
];
const rows: ResultRow[] = [];
for (const [from, to] of spans) {
  const span = measured.filter((one) => one.turn >= from! && one.turn <= to!);
  if (span.length === 0) continue;
  const of = (way: 'now' | 'moved' | 'fresh' | 'memory', figure: 'firstMs' | 'read') =>
    round1(median(span.map((one) => one[way][figure])));
  rows.push({
    turns: `${from}–${span.at(-1)!.turn}`,
    'prompt tokens': median(span.map((one) => one.now.promptTokens)),
    'now: first token ms': of('now', 'firstMs'),
    'now: read': of('now', 'read'),
    // The sends whose history started later than the last prompt's: read again from there.
    'now: sends reading their history again': span.filter((one) => one.now.read > 200).length,
    'now: prompt tokens, mean': Math.round(
      span.reduce((sum, one) => sum + one.now.promptTokens, 0) / span.length,
    ),
    'start moved: prompt tokens, mean': Math.round(
      span.reduce((sum, one) => sum + one.moved.promptTokens, 0) / span.length,
    ),
    'start moved: first token ms': of('moved', 'firstMs'),
    'start moved: read': of('moved', 'read'),
    'from the start: first token ms': of('fresh', 'firstMs'),
    'from the start: read': of('fresh', 'read'),
    'with memories: prompt tokens': median(span.map((one) => one.memory.promptTokens)),
    'with memories: first token ms': of('memory', 'firstMs'),
    'with memories: read': of('memory', 'read'),
  });
}
console.log(
  `A chat's next message on the embedded model (${MODEL.split('/').at(-1)}, a ${CONTEXT}-token context, one sequence and one thread each, ${os.cpus().length} cores): medians over spans of turns of the time to first token and of the prompt tokens read anew; now, beside the kept sequence with a prompt whose start moves at each send once the chat is full, the prompt read from its start, and the chat with memories.`,
);
console.table(rows);
saveResults('embedded-prompt', rows);
