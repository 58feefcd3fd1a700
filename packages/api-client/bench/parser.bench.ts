// Throughput of the streamed-reply parser on a 10 MB stream of realistic reply deltas,
// side by side with eventsource-parser on the same bytes, in the same process and run.
// Both sides decode UTF-8 and JSON.parse every event: the work a chat client really does.
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { createDataLineParser } from '../src/stream/data-line-parser';

const TARGET_BYTES = 10 * 1024 * 1024;
const CHUNK_BYTES = 16 * 1024;
const RUNS = 15;

const WORDS = [
  'the',
  'moon',
  'was',
  'soft',
  'tonight',
  '*she',
  'smiles*',
  'and',
  'you',
  'café',
  'naïve',
  '—',
  'why',
  'not?',
  '心',
  '🙂',
  'I',
  'remember',
  'everything',
  'you',
  'said',
];

function buildStream(): { bytes: Uint8Array; events: number } {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const parts: string[] = [];
  let size = 0;
  let events = 0;
  const push = (event: unknown) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
    events += 1;
  };
  push({ type: 'reply-start', roomId: 'room-1', userMessage: null, messageId: 'msg-1' });
  while (size < TARGET_BYTES) {
    const count = 1 + Math.floor(random() * 3);
    const text = Array.from(
      { length: count },
      () => WORDS[Math.floor(random() * WORDS.length)],
    ).join(' ');
    push({ type: 'reply-delta', text: ` ${text}` });
  }
  push({
    type: 'reply-end',
    messageId: 'msg-1',
    finishReason: 'stop',
    usage: { promptTokens: 1, completionTokens: events },
    benefits: { chats: 1, goldCoins: 0, userId: 'u' },
  });
  parts.push('data: [DONE]\n\n');
  return { bytes: new TextEncoder().encode(parts.join('')), events };
}

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES)
    chunks.push(bytes.subarray(start, start + CHUNK_BYTES));
  return chunks;
}

function runOurs(chunks: Uint8Array[]): number {
  let seen = 0;
  const parser = createDataLineParser({ onData: () => (seen += 1) });
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return seen;
}

function runEventsourceParser(chunks: Uint8Array[]): number {
  let seen = 0;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      JSON.parse(event.data);
      seen += 1;
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return seen;
}

type Runner = (chunks: Uint8Array[]) => number;

// Runs the contenders in turn, round after round, so that drift (GC, the other core's
// load, CPU clocks) falls on both alike; the first rounds only warm the JIT.
function measure(runners: Runner[], chunks: Uint8Array[], expected: number): number[] {
  const times = runners.map((): number[] => []);
  for (let round = 0; round < RUNS + 2; round += 1) {
    runners.forEach((run, index) => {
      const start = performance.now();
      const seen = run(chunks);
      const elapsed = performance.now() - start;
      if (seen !== expected) throw new Error(`expected ${expected} events, saw ${seen}`);
      if (round >= 2) times[index]!.push(elapsed);
    });
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

const { bytes, events } = buildStream();
const chunks = chunksOf(bytes);
const megabytes = bytes.length / 1024 / 1024;
const [ours, theirs] = measure([runOurs, runEventsourceParser], chunks, events);
const results = [
  { name: '@mates/api-client createDataLineParser', ms: ours! },
  { name: 'eventsource-parser 3 + JSON.parse', ms: theirs! },
];
console.log(
  `Streamed-reply parser: ${megabytes.toFixed(1)} MB, ${events.toLocaleString('en')} events, ${chunks.length} chunks of ${CHUNK_BYTES / 1024} KiB, median of ${RUNS} runs`,
);
console.table(
  results.map(({ name, ms }) => ({
    parser: name,
    'median ms': ms.toFixed(1),
    'MB/s': (megabytes / (ms / 1000)).toFixed(1),
    'events/s': Math.round(events / (ms / 1000)).toLocaleString('en'),
  })),
);
const ratio = results[1]!.ms / results[0]!.ms;
console.log(
  `Speed ratio (ours ÷ eventsource-parser): ${ratio.toFixed(2)}x ${ratio >= 1 ? '(at least as fast)' : '(slower)'}`,
);
