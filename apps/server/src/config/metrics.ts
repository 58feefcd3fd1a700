import { z } from 'zod';
import { ConfigError, type VariableValues } from './environment';

/** Where Prometheus reads the metrics. */
export const metricsVariables = {
  METRICS_PATH: z
    .string()
    .regex(
      /^(off|\/[\w.~-]+(\/[\w.~-]+)*)$/,
      'must be a path such as /metrics (letters, digits, . _ ~ - between slashes), or off',
    )
    .default('/metrics'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
};

/** Where the metrics are answered (`METRICS_PATH`, `METRICS_PORT`). */
export interface MetricsConfig {
  path: string;
  /** A port of their own (0: any free one), or `undefined` to answer on the main port. */
  port: number | undefined;
}

/** The part of the configuration the metrics variables give. */
export interface MetricsSettings {
  /**
   * Where Prometheus reads the metrics: `path` on the main port, or on a port of their own
   * when `port` is set (`METRICS_PATH`, `METRICS_PORT`); `null` when `METRICS_PATH=off`.
   */
  metrics: MetricsConfig | null;
}

/** Reads the metrics' address; `port` is the server's own `PORT`, which they may not share. */
export function readMetricsSettings(
  values: VariableValues<typeof metricsVariables>,
  port: number,
): MetricsSettings {
  return { metrics: readMetricsConfig(values, port) };
}

function readMetricsConfig(
  values: VariableValues<typeof metricsVariables>,
  port: number,
): MetricsConfig | null {
  if (values.METRICS_PATH === 'off') {
    if (values.METRICS_PORT !== undefined)
      throw new ConfigError(
        `Invalid METRICS_PORT: it is set but METRICS_PATH is off; unset one of them (got ${JSON.stringify(String(values.METRICS_PORT))})`,
      );
    return null;
  }
  if (values.METRICS_PORT && values.METRICS_PORT === port)
    throw new ConfigError(
      `Invalid METRICS_PORT: it is the server's own PORT; give another port, or unset it to answer ${values.METRICS_PATH} on PORT (got ${JSON.stringify(String(values.METRICS_PORT))})`,
    );
  return { path: values.METRICS_PATH, port: values.METRICS_PORT };
}
