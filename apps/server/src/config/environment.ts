import { z } from 'zod';

/** The variables the configuration is read from: `process.env`, or a test's own object. */
export type Environment = Record<string, string | undefined>;

/** The checked values of the variables a concern's module defines (`…Variables`). */
export type VariableValues<Shape extends z.core.$ZodShape> = z.output<z.ZodObject<Shape>>;

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A base URL engines are called at: http or https only. */
export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();

/** Where OpenAI's API is: the default base URL of the remote speech and transcription engines. */
export const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * Checks `env` against `schema`; throws a {@link ConfigError} naming the first variable that
 * fails (in the schema's order) with the value it was given. Blank values count as unset.
 */
export function parseEnvironment<Shape extends z.core.$ZodShape>(
  schema: z.ZodObject<Shape>,
  env: Environment,
): VariableValues<Shape> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    throw new ConfigError(`Invalid ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`);
  }
  return parsed.data;
}
