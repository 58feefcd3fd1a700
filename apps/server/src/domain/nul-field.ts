/**
 * Where `value` holds a string with U+0000 in it: the field's path, or `null`. PostgreSQL
 * cannot store that character in text (it refused the write as a server error) and SQLite
 * would keep it, unseen, in a name shown to everyone: refused as bad input on both.
 */
export function nulField(value: unknown, prefix: string[] = []): string | null {
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
