// The embedded speech to text's accuracy and speed (#42): the embedded speech synthesis (Flite,
// the `slt` voice) reads 50 sentences, the embedded transcription (Moonshine tiny on ONNX
// Runtime) writes them back; the word error rate (word-level edit distance over the words read,
// case and punctuation aside) and the time of each transcription are printed. Goal: ≤ 15%.
import fs from 'node:fs';
import path from 'node:path';
import { distance } from 'fastest-levenshtein';
import { createLogger } from '../src/logging/logger';
import {
  createEmbeddedTranscription,
  moonshineTinyFolder,
} from '../src/voice/embedded-transcription';
import { spokenWav } from '../test/spoken-wav';
import { saveResults } from './results';

const SENTENCES = [
  'Tell me about your day at the lake.',
  'I would like a cup of tea with honey, please.',
  'The weather was lovely this morning and the birds were singing.',
  'Can you remember the name of the little bookshop by the harbour?',
  'I missed you while I was away.',
  'What should we cook for dinner tonight?',
  'The train was late again, so I walked home in the rain.',
  'My sister is visiting next weekend with her two children.',
  'Do you think it will snow before the end of the month?',
  'I finally finished reading the novel you gave me.',
  'Let us go for a walk along the river after lunch.',
  'Why do you always laugh when I tell that story?',
  'The concert starts at eight, and we still need tickets.',
  'Please tell me a story about a dragon and a knight.',
  'I am feeling a little tired, but happy.',
  'Where did you learn to play the piano so well?',
  'The garden needs water before the sun gets too hot.',
  'We should plan a trip to the mountains this summer.',
  'I lost my keys somewhere between the car and the door.',
  'Thank you for listening to me today.',
  'How was your meeting with the new manager?',
  'The coffee shop on the corner has the best croissants.',
  'I want to learn how to paint with watercolours.',
  'Could you help me write a letter to my grandmother?',
  'The dog barked all night at the neighbour’s cat.',
  'It is my birthday tomorrow, and I have no plans yet.',
  'What is your favourite season, and why?',
  'I started running every morning before work.',
  'The museum has a new exhibition about ancient Egypt.',
  'Sometimes I wonder what the stars are made of.',
  'Let me know when you are ready to leave.',
  'My computer stopped working in the middle of the night.',
  'We watched an old film and ate far too much popcorn.',
  'I think I need a holiday by the sea.',
  'Tell me something that will make me smile.',
  'The baker gave me a free loaf of bread this morning.',
  'Have you ever been to a market in the middle of the night?',
  'I am nervous about the interview on Monday.',
  'The children built a sandcastle with a moat and a bridge.',
  'Please remind me to call my mother this evening.',
  'The library closes early on Sundays.',
  'I would love to hear you sing again.',
  'A storm is coming, so close the windows.',
  'She planted tomatoes, beans and sunflowers in the spring.',
  'What did you dream about last night?',
  'The old bridge was painted red many years ago.',
  'I promise I will be on time next time.',
  'Good night, and sleep well.',
  'We found a quiet table by the window.',
  'The kettle is boiling, so let us have some tea.',
];

/** The words of a sentence, as the error rate counts them: lower case, no punctuation. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/**
 * Word-level edit distance (substitutions, insertions, deletions): each distinct word becomes one
 * character, and fastest-levenshtein counts the edits between the two strings.
 */
function wordEdits(said: string[], heard: string[], codes: Map<string, string>): number {
  const code = (word: string) => {
    if (!codes.has(word)) codes.set(word, String.fromCodePoint(0x4e00 + codes.size));
    return codes.get(word)!;
  };
  return distance(said.map(code).join(''), heard.map(code).join(''));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const threads = Number(process.env.BENCH_THREADS ?? 2);
const engine = createEmbeddedTranscription({
  threads,
  timeoutMs: 120_000,
  log: createLogger({ level: 'warn', format: 'json' }),
});
const signal = new AbortController().signal;
// Warm: the model loads at the first transcription (timed apart).
const loadStart = performance.now();
await engine.transcribe(await spokenWav([0.3, 'Hello there.', 0.3], 16_000), 'audio/wav', {
  signal,
});
const loadMs = performance.now() - loadStart;

const codes = new Map<string, string>();
let edits = 0;
let total = 0;
let exact = 0;
const times: number[] = [];
const factors: number[] = [];
const misses: string[] = [];
for (const sentence of SENTENCES) {
  const audio = await spokenWav([0.3, sentence, 0.3], 16_000);
  const seconds = (audio.length - 44) / 2 / 16_000;
  const start = performance.now();
  const heard = await engine.transcribe(audio, 'audio/wav', { signal });
  const ms = performance.now() - start;
  times.push(ms);
  factors.push(ms / 1000 / seconds);
  const said = words(sentence);
  const got = words(heard);
  const wrong = wordEdits(said, got, codes);
  edits += wrong;
  total += said.length;
  if (wrong === 0) exact += 1;
  else misses.push(`  said: ${sentence}\n  heard: ${heard}`);
}

const folder = moonshineTinyFolder();
const modelMb =
  fs
    .readdirSync(folder)
    .map((name) => fs.statSync(path.join(folder, name)).size)
    .reduce((sum, size) => sum + size, 0) /
  1024 /
  1024;
const wer = (100 * edits) / total;
const rows = [
  {
    engine: 'embedded (Moonshine tiny, quantized)',
    voice: 'embedded Flite slt',
    threads,
    sentences: SENTENCES.length,
    words: total,
    wordErrorRatePct: Number(wer.toFixed(1)),
    goalPct: 15,
    met: wer <= 15 ? 'yes' : 'no',
    exactSentences: exact,
    transcribeP50Ms: Math.round(percentile(times, 50)),
    transcribeP95Ms: Math.round(percentile(times, 95)),
    realTimeFactorP50: Number(percentile(factors, 50).toFixed(3)),
    firstLoadMs: Math.round(loadMs),
    modelMb: Number(modelMb.toFixed(1)),
  },
];
console.log('\nEmbedded transcription: Flite reads, Moonshine writes back');
console.table(rows);
if (misses.length > 0) console.log(`Sentences not heard exactly:\n${misses.join('\n')}`);
saveResults('transcription', rows);
process.exit(0);
