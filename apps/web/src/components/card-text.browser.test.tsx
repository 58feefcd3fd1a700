import { describe, expect, it } from 'vitest';
import { fillMacros } from './card-text';

describe('card macros', () => {
  it('fills names as written, `$` patterns and macros in them included', () => {
    // As replacement strings, `$&`, `$'` and `$\`` would expand into the text around them.
    expect(fillMacros('Hi {{user}}, I am {{char}}.', "Ca$h $& $' $`", 'Jo')).toBe(
      "Hi Jo, I am Ca$h $& $' $`.",
    );
    expect(fillMacros('{{char}} meets {{user}}', 'Ann', "$'$'")).toBe("Ann meets $'$'");
    // A name is not card text: a macro in it stays as it is.
    expect(fillMacros('{{char}} greets {{user}}', 'Mr {{user}}', 'Jo')).toBe(
      'Mr {{user}} greets Jo',
    );
  });

  it('fills the V1 spellings <BOT> and <USER> too, in any case', () => {
    expect(fillMacros('<BOT> waves at <USER>; <user> at <bot>.', 'Ann', 'Jo')).toBe(
      'Ann waves at Jo; Jo at Ann.',
    );
  });
});
