import type { Context } from 'hono';
import type { z } from 'zod';
import { badInput } from './envelope';

function describe(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Parses the query string with `schema`; bad input throws a clear 4000 envelope error. */
export function query<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw badInput(describe(result.error));
  return result.data;
}

/** Parses the JSON body with `schema`; bad input throws a clear 4000 envelope error. */
export async function body<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let json: unknown;
  try {
    const text = await c.req.text();
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw badInput('The request body is not valid JSON.');
  }
  const result = schema.safeParse(json);
  if (!result.success) throw badInput(describe(result.error));
  return result.data;
}
