import { createOpenAiModel, type OpenAiModelOptions } from '../src/llm/openai';
import { startTestServer } from './harness';
import { startOpenAiDouble } from './openai-double';

/**
 * A seeded test server (SQLite, real HTTP) whose language model is an OpenAI-compatible
 * double on 127.0.0.1; `model` overrides the provider's options (key, timeouts, …), and
 * `doubleOptions` the double's (see {@link startOpenAiDouble}).
 */
export async function startOnOpenAiDouble(
  model: Partial<Omit<OpenAiModelOptions, 'baseUrl'>> = {},
  doubleOptions: Parameters<typeof startOpenAiDouble>[0] = {},
) {
  const double = await startOpenAiDouble(doubleOptions);
  const server = await startTestServer('sqlite', {
    model: createOpenAiModel({
      baseUrl: double.baseUrl,
      apiKey: 'sk-test',
      model: 'mate-model',
      contextSize: 8192,
      ...model,
    }),
  });
  return {
    double,
    server,
    close: async () => {
      await server.close();
      await double.close();
    },
  };
}
