// What a conversation's next message costs the embedded model as the chat grows (#38): its
// time to first token when the llama.cpp sequence still holds the conversation (what a send
// meets now: the sequence that read a chat's beginning answers its next message), beside the
// same prompt read from its start, as every send read it before (the sequence made to hold
// another conversation first). One sequence, one thread, 12-token replies at temperature 0, a
// card of about 1,300 characters; the chat grows by a message and a reply a turn until it
// nearly fills the 2,048-token context. LLM_MODEL (a GGUF file; default the tiny model of the tests) and
// BENCH_TURNS (default 40) vary it. Prints medians over spans of turns and saves
// bench/results/embedded-prompt.json.
import os from 'node:os';
import { createEmbeddedModel } from '../src/llm/embedded';
import type { ChatTurn, GenerationResult } from '../src/llm/language-model';
import { silentLogger } from '../src/logging/logger';
import { TEST_GGUF } from '../test/harness';
import { saveResults, type ResultRow } from './results';

const MODEL = process.env.LLM_MODEL ?? TEST_GGUF;
const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const REPLY_TOKENS = 12;
const CONTEXT = 2048;

const model = createEmbeddedModel({
  model: MODEL,
  modelsDir: os.tmpdir(),
  threads: 1,
  contextSize: CONTEXT,
  parallel: 1,
  queue: 1,
  log: silentLogger(),
});
await model.ready;
if (model.unavailableReason()) throw new Error(model.unavailableReason()!);

const card =
  'You are Lyra Moonwhisper, the keeper of a lighthouse library on a windy northern coast. ' +
  'You speak softly, love old maps and sea stories, and remember every visitor by the book ' +
  'they borrowed. '.repeat(8);
const turns: ChatTurn[] = [
  { role: 'system', content: card },
  { role: 'assistant', content: 'Welcome in from the rain. Which story shall we find tonight?' },
];
const stranger: ChatTurn[] = [{ role: 'user', content: 'Say something short.' }];

/** One answer: its time to first text, the prompt's tokens and those read anew. */
async function ask(prompt: ChatTurn[]) {
  const started = performance.now();
  let first = NaN;
  let text = '';
  const result: GenerationResult = await model.generate(
    prompt,
    { signal: new AbortController().signal, maxTokens: REPLY_TOKENS, temperature: 0 },
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

interface Turn {
  turn: number;
  promptTokens: number;
  keptMs: number;
  keptRead: number;
  freshMs: number;
  freshRead: number;
}
const measured: Turn[] = [];
for (let turn = 1; turn <= TURNS; turn += 1) {
  // Until the context is nearly full: past it, llama.cpp would drop the chat's oldest turns.
  if ((measured.at(-1)?.promptTokens ?? 0) > CONTEXT - 200) break;
  turns.push({ role: 'user', content: `Turn ${turn}: tell me what happened next at the shore.` });
  // The sequence holds the chat as far as the last reply: the next message as a send asks it.
  const kept = await ask(turns);
  // The same prompt once the sequence holds another conversation: read from its start.
  await ask(stranger);
  const fresh = await ask(turns);
  measured.push({
    turn,
    promptTokens: kept.promptTokens,
    keptMs: kept.firstMs,
    keptRead: kept.read,
    freshMs: fresh.firstMs,
    freshRead: fresh.read,
  });
  turns.push({ role: 'assistant', content: fresh.text });
}
await model.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const round1 = (value: number) => Math.round(value * 10) / 10;
const spans = [
  [1, 5],
  [6, 10],
  [11, 20],
  [21, 30],
  [31, 40],
];
const rows: ResultRow[] = [];
for (const [from, to] of spans) {
  const span = measured.filter((one) => one.turn >= from! && one.turn <= to!);
  if (span.length === 0) continue;
  const keptMs = median(span.map((one) => one.keptMs));
  const freshMs = median(span.map((one) => one.freshMs));
  rows.push({
    turns: `${from}–${Math.min(to!, span.at(-1)!.turn)}`,
    'prompt tokens': median(span.map((one) => one.promptTokens)),
    'read, sequence kept': median(span.map((one) => one.keptRead)),
    'read, from the start': median(span.map((one) => one.freshRead)),
    'first token ms, sequence kept': round1(keptMs),
    'first token ms, from the start': round1(freshMs),
    'from the start ÷ kept': round1(freshMs / keptMs),
  });
}
console.log(
  `A chat's next message on the embedded model (${MODEL.split('/').at(-1)}, one sequence, one thread, ${os.cpus().length} cores): its time to first token with the sequence that holds the chat, beside the same prompt read from its start; medians over spans of turns.`,
);
console.table(rows);
saveResults('embedded-prompt', rows);
