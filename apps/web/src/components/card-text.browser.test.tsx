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

  it('shows SillyTavern macros as a reader would meet them, not as written', () => {
    // Notes for creators (a macro inside one too), noop, newline and trim are for the card.
    expect(
      fillMacros(
        '{{// keep {{char}} shy }}Ann{{noop}} blushes.{{newline}}Then:\n{{trim}}\nhi',
        'Ann',
        'Jo',
      ),
    ).toBe('Ann blushes.\nThen:hi');
    // A choice shows its first one (a chat makes its own), spelled either way; a throw its dice.
    expect(fillMacros('{{random::tea::coffee}}, {{pick:red, blue}}, {{roll:d20}}', 'A', 'B')).toBe(
      'tea, red, d20',
    );
    expect(fillMacros('{{random::{{user}}::{{char}}}} waves', 'Ann', 'Jo')).toBe('Jo waves');
    // Dice the server would not throw stay as written, as it leaves them.
    expect(fillMacros('{{roll:banana}} {{roll:}} {{roll 2d6 + 1}}', 'A', 'B')).toBe(
      '{{roll:banana}} {{roll:}} 2d6+1',
    );
    // What is no macro of SillyTavern's, or never closes, stays as written.
    expect(fillMacros('{{time}} {{// never closed', 'A', 'B')).toBe('{{time}} {{// never closed');
  });
});
