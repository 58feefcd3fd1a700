import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CollectFunction,
} from 'prom-client';

/**
 * The server's Prometheus metrics (prom-client), in a registry of its own: tests start several
 * servers in one process, and each must count only its own requests. Gauges of things that
 * exist elsewhere (open streams, the model's queue, jobs, the database pool) are read when
 * Prometheus scrapes, by the collectors {@link watch} adds.
 */
export interface Metrics {
  registry: Registry;
  /** Seconds from a request's arrival to its answer's headers, by route pattern and status. */
  httpDuration: Histogram<'method' | 'route' | 'code'>;
  /** Seconds from asking the model to its first piece of text (waiting in its queue included). */
  timeToFirstToken: Histogram;
  /** Tokens per second of a generation, after its first token. */
  tokensPerSecond: Histogram;
  /** Generations the model refused because it was busy (its queue full, or the provider's 429). */
  modelBusyRefusals: Counter;
  /** Jobs that ended failed, by kind. */
  jobFailures: Counter<'kind'>;
  /** Prompt tokens of finished generations, read anew or taken from the model's cache. */
  promptTokens: Counter<'source'>;
}

/** Metric names start with this. */
export const METRICS_PREFIX = 'mates_';

/** A fresh registry with the server's metrics and Node's process metrics. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  return {
    registry,
    httpDuration: new Histogram({
      name: `${METRICS_PREFIX}http_request_duration_seconds`,
      help: 'Time from a request to the headers of its answer, by route pattern and status code.',
      labelNames: ['method', 'route', 'code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    timeToFirstToken: new Histogram({
      name: `${METRICS_PREFIX}model_time_to_first_token_seconds`,
      help: 'Time from asking the language model to its first piece of text, waiting in its queue included.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
      registers: [registry],
    }),
    tokensPerSecond: new Histogram({
      name: `${METRICS_PREFIX}model_tokens_per_second`,
      help: 'Tokens per second of a generation, counted after its first token.',
      buckets: [1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300],
      registers: [registry],
    }),
    modelBusyRefusals: new Counter({
      name: `${METRICS_PREFIX}model_busy_refusals_total`,
      help: 'Generations refused because the language model was busy (its queue full, or the provider answered 429).',
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: `${METRICS_PREFIX}job_failures_total`,
      help: 'Background jobs that ended failed, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    promptTokens: new Counter({
      name: `${METRICS_PREFIX}model_prompt_tokens_total`,
      help: 'Prompt tokens of finished generations: read anew by the model ("read"), or held from an earlier one ("cache": llama.cpp\'s KV cache, a provider\'s prompt cache), where the model says.',
      labelNames: ['source'],
      registers: [registry],
    }),
  };
}

/** A gauge whose value is read at each scrape; a failing read leaves the last value. */
export function watchedGauge<Label extends string>(
  metrics: Metrics,
  options: { name: string; help: string; labelNames?: Label[] },
  read: (gauge: Gauge<Label>) => void | Promise<void>,
): Gauge<Label> {
  const collect: CollectFunction<Gauge<Label>> = async function (this: Gauge<Label>) {
    try {
      await read(this);
    } catch {
      // A scrape must answer even while a source is down (the database, a queue): the gauge
      // keeps its last value, and the source's own errors are logged where they happen.
    }
  };
  return new Gauge<Label>({
    name: `${METRICS_PREFIX}${options.name}`,
    help: options.help,
    labelNames: options.labelNames ?? [],
    registers: [metrics.registry],
    collect,
  });
}
