import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiModel } from '../src/llm/openai';
import { startOpenAiDouble } from './openai-double';
import { captureLog } from './log-capture';

// Review of issue #36's skipped lines: a chunk skipped for its shape (its text not a string)
// also dropped its finish_reason, so a reply the provider did finish was taken as cut off.
describe('an OpenAI-compatible stream whose finishing chunk is skipped for its shape', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  const log = captureLog('warn');
  const chunk = (choice: object) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, ...choice }] })}\n\n`;
  const generate = async (body: string) => {
    double.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const model = createOpenAiModel({
      baseUrl: double.baseUrl,
      apiKey: 'sk-test',
      model: 'mate-model',
      contextSize: 4096,
      log: log.logger,
    });
    let text = '';
    try {
      const result = await model.generate(
        [{ role: 'user', content: 'Hi' }],
        { maxTokens: 64, signal: new AbortController().signal },
        (piece) => (text += piece),
      );
      return { text, finishReason: result.finishReason };
    } finally {
      await model.close();
    }
  };
  beforeAll(async () => {
    double = await startOpenAiDouble();
  });
  afterAll(() => double.close());

  it('keeps its finish_reason (the reply is whole), and logs the skipped line', async () => {
    const before = log.lines.length;
    const result = await generate(
      chunk({ delta: { content: 'Hello' } }) +
        chunk({ delta: { content: 42 }, finish_reason: 'length' }),
    );
    expect(result).toEqual({ text: 'Hello', finishReason: 'length' });
    expect(log.lines.slice(before)).toEqual([
      expect.stringMatching(/^The model provider sent 1 malformed line, skipped: /),
    ]);
  });

  it('keeps a good chunk’s finish_reason when a skipped one comes after it', async () => {
    const result = await generate(
      chunk({ delta: { content: 'Hello' }, finish_reason: 'length' }) +
        chunk({ delta: 'not an object', finish_reason: 'stop' }) +
        'data: [DONE]\n\n',
    );
    expect(result).toEqual({ text: 'Hello', finishReason: 'length' });
  });
});

// Review of issue #38: a signal already aborted when `generate` was called was never heard (an
// abort listener added late never fires), so the provider wrote a whole reply nobody wanted.
describe('an OpenAI-compatible model asked with a signal already aborted', () => {
  it('asks the provider nothing and answers a stopped, empty result', async () => {
    const double = await startOpenAiDouble();
    const model = createOpenAiModel({
      baseUrl: double.baseUrl,
      apiKey: 'sk-test',
      model: 'mate-model',
      contextSize: 4096,
    });
    try {
      let text = '';
      const result = await model.generate(
        [{ role: 'user', content: 'Hi' }],
        { maxTokens: 64, signal: AbortSignal.abort() },
        (piece) => (text += piece),
      );
      expect(result).toEqual({ finishReason: 'stop', promptTokens: 0, completionTokens: 0 });
      expect(text).toBe('');
      expect(double.requests).toEqual([]);
    } finally {
      await model.close();
      await double.close();
    }
  });
});
