import type { LanguageModel } from '../llm/language-model';
import { ProviderError } from '../domain/provider-error';
import type { Metrics } from './metrics';

/**
 * `model`, measured: each generation's time to its first piece of text, its tokens per second
 * (after the first token) and its prompt tokens read or cached, and each refusal because the
 * model was busy. Generations in flight are counted here for models that do not report their
 * own {@link LanguageModel.load}.
 */
export function instrumentModel(model: LanguageModel, metrics: Metrics): LanguageModel {
  let inFlight = 0;
  return {
    generate: async (turns, options, onText) => {
      const started = performance.now();
      let firstAt: number | undefined;
      let pieces = 0;
      inFlight += 1;
      try {
        const result = await model.generate(turns, options, (text) => {
          pieces += 1;
          if (firstAt === undefined) {
            firstAt = performance.now();
            metrics.timeToFirstToken.observe((firstAt - started) / 1000);
          }
          onText(text);
        });
        const seconds = firstAt === undefined ? 0 : (performance.now() - firstAt) / 1000;
        // A provider that reports no usage leaves its pieces as the count (about one token each).
        const tokens = (result.completionTokens || pieces) - 1;
        if (tokens > 0 && seconds > 0) metrics.tokensPerSecond.observe(tokens / seconds);
        // Only from a model that says what it held: otherwise no share of the cache is known.
        if (result.cachedPromptTokens !== undefined) {
          const cached = Math.min(result.cachedPromptTokens, result.promptTokens);
          metrics.promptTokens.inc({ source: 'cache' }, cached);
          metrics.promptTokens.inc({ source: 'read' }, result.promptTokens - cached);
        }
        return result;
      } catch (error) {
        if (error instanceof ProviderError && error.failure === 'busy') {
          metrics.modelBusyRefusals.inc();
        }
        throw error;
      } finally {
        inFlight -= 1;
      }
    },
    countTokens: (text) => model.countTokens(text),
    // A getter: the embedded model knows its real context only once loaded.
    get contextSize() {
      return model.contextSize;
    },
    get turnTokens() {
      return model.turnTokens;
    },
    unavailableReason: () => model.unavailableReason(),
    describe: () => model.describe(),
    load: () => model.load?.() ?? { running: inFlight, waiting: 0 },
    close: () => model.close(),
  };
}
