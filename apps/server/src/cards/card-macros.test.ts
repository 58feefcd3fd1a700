import { describe, expect, it } from 'vitest';
import { fillCardMacros, fillNames } from './card-macros';

const names = { char: 'Lyra', user: 'Ada' };

describe("a card's SillyTavern macros", () => {
  it('take out notes and no-ops, and write line breaks and trims as SillyTavern does', () => {
    expect(
      fillCardMacros(
        "{{// the creator's note, not for the model }}{{char}} smiles.{{noop}}\n\n{{trim}}\n{{newline}}Done.",
        names,
        { seed: 'room-1' },
      ),
    ).toBe('Lyra smiles.\nDone.');
  });

  it('choose one of random choices in either spelling, names inside filled', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const text = fillCardMacros(
        '{{random::red::green, blue::{{user}}}}|{{random:1,2\\,5}}',
        names,
        {
          seed: 'room-1',
          fresh: true,
        },
      );
      seen.add(text);
      expect(text).toMatch(/^(red|green, blue|Ada)\|(1|2,5)$/);
    }
    // Anew at each fill: every pairing turns up in 200 fills.
    expect(seen.size).toBe(6);
  });

  it('pick once for a chat, and fill a greeting the same each time for its chat', () => {
    const text = '{{pick::tea::coffee::cocoa::juice}} and {{random::a::b::c::d::e::f}}';
    const first = fillCardMacros(text, names, { seed: 'room-1' });
    for (let i = 0; i < 20; i++)
      expect(fillCardMacros(text, names, { seed: 'room-1' })).toBe(first);
    const picks = new Set(
      Array.from({ length: 40 }, (_, i) =>
        fillCardMacros('{{pick::tea::coffee::cocoa::juice}}', names, {
          seed: `room-${i}`,
          fresh: true,
        }),
      ),
    );
    expect(picks.size).toBeGreaterThan(1);
    // `fresh` re-chooses random, never pick.
    const picked = fillCardMacros('{{pick::tea::coffee::cocoa::juice}}', names, { seed: 'room-1' });
    for (let i = 0; i < 20; i++)
      expect(
        fillCardMacros('{{pick::tea::coffee::cocoa::juice}}', names, {
          seed: 'room-1',
          fresh: true,
        }),
      ).toBe(picked);
  });

  it('throw dice within their sides, and leave what is not dice (or too many) as written', () => {
    for (let i = 0; i < 100; i++) {
      const [one, two, plus] = fillCardMacros('{{roll:d6}} {{roll:2d6}} {{roll:1d4+10}}', names, {
        seed: `room-${i}`,
      })
        .split(' ')
        .map(Number);
      expect(one).toBeGreaterThanOrEqual(1);
      expect(one).toBeLessThanOrEqual(6);
      expect(two).toBeGreaterThanOrEqual(2);
      expect(two).toBeLessThanOrEqual(12);
      expect(plus).toBeGreaterThanOrEqual(11);
      expect(plus).toBeLessThanOrEqual(14);
    }
    expect(fillCardMacros('{{roll:many}} {{roll:1000d6}} {{time}}', names, { seed: 's' })).toBe(
      '{{roll:many}} {{roll:1000d6}} {{time}}',
    );
  });

  it('leave names that read as macros as written', () => {
    expect(
      fillCardMacros(
        '{{user}} meets {{char}}',
        { char: "$'$&", user: '{{random::x::y}} {{// no}}' },
        {
          seed: 'room-1',
        },
      ),
    ).toBe("{{random::x::y}} {{// no}} meets $'$&");
    expect(fillNames('<USER> and <bot>, {{random::a}}', names)).toBe('Ada and Lyra, {{random::a}}');
  });

  it('read a long text of unclosed notes and line breaks through (no pattern reads it again from each)', () => {
    const hostile = `${'\n'.repeat(100_000)}x{{trim}}${'\n\r'.repeat(50_000)}${'{{//'.repeat(50_000)}`;
    const filled = fillCardMacros(hostile, names, { seed: 'room-1' });
    // Only the line breaks touching {{trim}} go ("\n", then each "\r\n"; the last "\r" stays).
    expect(filled).toBe(`${'\n'.repeat(100_000)}x\r${'{{//'.repeat(50_000)}`);
  });

  it('take a note out whole, names inside it and all (SillyTavern fills names first)', () => {
    expect(
      fillCardMacros('Hi.{{// {{char}} must never tell {{user}}: the butler did it}} Bye', names, {
        seed: 's',
      }),
    ).toBe('Hi. Bye');
  });

  it("split choices as SillyTavern does: on '::' where the list has it, else on commas", () => {
    const one = (text: string) => fillCardMacros(text, names, { seed: 's', fresh: true });
    for (let i = 0; i < 50; i++) {
      expect(one('{{random::a,b,c}}')).toMatch(/^[abc]$/);
      expect(one('{{random:a::b}}')).toMatch(/^[ab]$/);
      expect(one('{{random : x::y}}')).toMatch(/^ ?[xy]$/);
      expect(Number(one('{{roll 1d6}}'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('read a long dice formula at once, and leave it as written', () => {
    const formula = `{{roll:${' '.repeat(2000)}1${' '.repeat(2000)}x}}`;
    expect(fillCardMacros(formula, names, { seed: 's' })).toBe(formula);
  });
});
