import { afterAll, beforeAll } from 'vitest';
import { doubleModel, startTestServer } from './harness';
import { startOpenAiDouble } from './openai-double';

/** What {@link serverWithDouble} starts: read it inside tests and hooks, once the suite began. */
export interface ServerWithDouble {
  server: Awaited<ReturnType<typeof startTestServer>>;
  double: Awaited<ReturnType<typeof startOpenAiDouble>>;
}

/**
 * A test server on `dialect` whose language model answers through the OpenAI-compatible
 * double, started before the suite's tests and closed after them (neither when `skip`: a
 * dialect that cannot run here). `overrides` go to `startTestServer`, the model aside. Hooks
 * the suite adds after this call run once both are up.
 */
export function serverWithDouble(
  dialect: 'sqlite' | 'postgres',
  {
    skip = false,
    ...overrides
  }: { skip?: boolean } & Omit<NonNullable<Parameters<typeof startTestServer>[1]>, 'model'> = {},
): ServerWithDouble {
  const suite = {} as ServerWithDouble;
  beforeAll(async () => {
    if (skip) return;
    suite.double = await startOpenAiDouble();
    suite.server = await startTestServer(dialect, {
      ...overrides,
      model: doubleModel(suite.double),
    });
  });
  afterAll(async () => {
    if (skip) return;
    await suite.server.close();
    await suite.double.close();
  });
  return suite;
}
