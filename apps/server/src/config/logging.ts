import { z } from 'zod';
import { LOG_LEVELS, type LogConfig } from '../logging/logger';
import type { VariableValues } from './environment';

/** How much the server logs, and how its lines look. */
export const logVariables = {
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
};

/** The part of the configuration the log variables give. */
export interface LogSettings {
  /** How the server logs (`LOG_LEVEL`, `LOG_FORMAT`). */
  log: LogConfig;
}

/** Reads `LOG_LEVEL` and `LOG_FORMAT`. */
export function readLogSettings(values: VariableValues<typeof logVariables>): LogSettings {
  return { log: { level: values.LOG_LEVEL, format: values.LOG_FORMAT } };
}
