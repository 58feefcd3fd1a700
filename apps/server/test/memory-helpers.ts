import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer } from './harness';
import { startOpenAiDouble, type Behaviour } from './openai-double';
import { createOpenAiModel } from '../src/llm/openai';
import type { MemoryJobPayload, MemoryWriterDeps } from '../src/chat/memory-writer';
import type { JobContext } from '../src/jobs/job-queue';
import type { LanguageModel } from '../src/llm/language-model';

/** A turn of a request the model double got. */
export type Turn = { role: string; content: string };

/** How the memory writer's requests begin: a double tells them from the chat's by it. */
export const MEMORY_ASK = 'You keep the memory of a roleplay chat';

/**
 * The memory writer's answer, as a model following its instructions would give it: each of
 * the person's (Ada's) lines becomes a fact about them (citing its number), and the summary
 * counts the lines it has seen.
 */
export function rememberEveryLine(body: Record<string, unknown>): Behaviour | undefined {
  const messages = body.messages as Turn[];
  if (!messages[0]?.content.startsWith(MEMORY_ASK)) return undefined;
  const asked = messages[1]!.content;
  const lines = asked.split('\n').filter((line) => /^\[\d+\] /.test(line));
  const facts = lines
    .map((line) => /^\[(\d+)\] ([^:]+): (.*)$/.exec(line)!)
    .filter((match) => match[2] === 'Ada')
    .map((match) => ({ text: match[3], about: 'person', from: [Number(match[1])] }));
  const before = /Summary so far: (\d+) lines seen/.exec(asked);
  const seen = (before ? Number(before[1]) : 0) + lines.length;
  return {
    kind: 'stream',
    pieces: [JSON.stringify({ summary: `${seen} lines seen`, facts })],
  };
}

/** What {@link memoryServer} starts: read it inside tests, once the suite began. */
export interface MemoryServer {
  double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  server: Awaited<ReturnType<typeof startTestServer>>;
  /** The turns of the model's last chat request (not the memory writer's), as text. */
  lastReplyPrompt: () => string[];
}

/**
 * A test server on `dialect` whose model is the OpenAI-compatible double with a context of
 * `contextSize` tokens (replies of 200), answering the memory writer with
 * {@link rememberEveryLine}, its job queue started; up before the suite, closed after it.
 */
export function memoryServer(
  dialect: 'sqlite' | 'postgres',
  { skip, contextSize }: { skip: boolean; contextSize: number },
): MemoryServer {
  const suite = {
    lastReplyPrompt: () =>
      (
        suite.double.requests
          .map((request) => request.body.messages as Turn[])
          .filter((messages) => !messages[0]!.content.startsWith(MEMORY_ASK))
          .at(-1) ?? []
      ).map((turn) => turn.content),
  } as MemoryServer;
  beforeAll(async () => {
    if (skip) return;
    suite.double = await startOpenAiDouble();
    suite.double.route(rememberEveryLine);
    suite.server = await startTestServer(dialect, {
      model: createOpenAiModel({
        baseUrl: suite.double.baseUrl,
        apiKey: 'sk-test',
        model: 'mate-model',
        contextSize,
      }),
      env: { LLM_MAX_TOKENS: '200' },
    });
    await suite.server.deps.jobs.start();
  });
  afterAll(async () => {
    if (skip) return;
    await suite.server.close();
    await suite.double.close();
  });
  return suite;
}

/** One run of the memory job for room `roomId`, as the queue would start it. */
export function memoryRun(
  roomId: string,
  before: number,
  signal = new AbortController().signal,
): JobContext<MemoryJobPayload> {
  return {
    id: randomUUID(),
    kind: 'memory',
    payload: { roomId, before },
    signal,
    attempt: 0,
    progress: async () => {},
  };
}

/** What the memory writer runs with on `server`, its model `model` (default the server's). */
export function writerDeps(
  server: MemoryServer['server'],
  model: LanguageModel = server.deps.chat.model,
): MemoryWriterDeps {
  return { db: server.db, jobs: server.deps.jobs, log: server.deps.log, model };
}
