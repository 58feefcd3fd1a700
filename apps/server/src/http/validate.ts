import type { Context } from 'hono';
import type { z } from 'zod';
import { badInput } from './envelope';
import { nulField } from '../domain/nul-field';
import { mayHoldHalves, wellFormedJson } from '../domain/well-formed';

function describe(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * Refuses (4000) a value with U+0000 in any of its strings, naming the field (after `prefix`,
 * for input read from inside another: a card in a picture).
 */
export function refuseNul(value: unknown, prefix: string[] = []): void {
  const field = nulField(value, prefix);
  if (field !== null)
    throw badInput(`${field ? `${field}: ` : ''}must not contain the character U+0000`);
}

/** Parses the query string with `schema`; bad input throws a clear 4000 envelope error. */
export function query<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const values = c.req.query();
  refuseNul(values);
  const result = schema.safeParse(values);
  if (!result.success) throw badInput(describe(result.error));
  return result.data;
}

/** Parses the JSON body with `schema`; bad input throws a clear 4000 envelope error. */
export async function body<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let json: unknown;
  let text: string;
  try {
    text = await c.req.text();
    // Half an emoji can only come escaped: it is read as U+FFFD, as both databases keep it.
    json = text === '' ? {} : JSON.parse(text, mayHoldHalves(text) ? wellFormedJson : undefined);
  } catch {
    throw badInput('The request body is not valid JSON.');
  }
  // In JSON the character can only come escaped: most bodies are not walked at all.
  if (text.includes('\\u0000')) refuseNul(json);
  const result = schema.safeParse(json);
  if (!result.success) throw badInput(describe(result.error));
  return result.data;
}
