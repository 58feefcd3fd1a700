import type { Context } from 'hono';
import type { z } from 'zod';
import { badInput } from './envelope';

function describe(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * Where `value` holds a string with U+0000 in it: the field's path, or `null`. PostgreSQL
 * cannot store that character in text (it refused the write as a server error) and SQLite
 * would keep it, unseen, in a name shown to everyone: refused as bad input on both.
 */
function nulField(value: unknown, prefix: string[] = []): string | null {
  // Walked with a stack of its own, not by recursion: a body may nest deeper than the call
  // stack goes (the limits on depth come later, with each call's schema). Each entry links to
  // its parent, so that a deep body costs no more than its size.
  type Step = { value: unknown; key: string | null; parent: Step | null };
  const pathOf = (step: Step): string => {
    const path: string[] = [];
    for (let at: Step | null = step; at?.key != null; at = at.parent) path.unshift(at.key);
    return [...prefix, ...path].join('.');
  };
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop()!;
    if (typeof step.value === 'string') {
      if (step.value.includes('\0')) return pathOf(step);
    } else if (step.value !== null && typeof step.value === 'object') {
      for (const [key, inner] of Object.entries(step.value)) {
        // In a key too (PostgreSQL's jsonb refuses it there as well): named by the object.
        if (key.includes('\0')) return pathOf(step);
        stack.push({ value: inner, key, parent: step });
      }
    }
  }
  return null;
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
    json = text === '' ? {} : JSON.parse(text);
  } catch {
    throw badInput('The request body is not valid JSON.');
  }
  // In JSON the character can only come escaped: most bodies are not walked at all.
  if (text.includes('\\u0000')) refuseNul(json);
  const result = schema.safeParse(json);
  if (!result.success) throw badInput(describe(result.error));
  return result.data;
}
