import { createHash } from 'node:crypto';

/** The names `{{char}}` and `{{user}}` stand for. */
export interface MacroNames {
  char: string;
  user: string;
}

/** How a card's text is filled: its chat, and where its random choices come from. */
export interface MacroOptions {
  /**
   * The chat the text is for: `{{pick}}` chooses the same in every prompt of one chat, and a
   * chat's greeting is filled the same whenever it is filled again (see `greetingVersions`).
   */
  seed: string;
  /** `{{random}}` and `{{roll}}` choose anew at each fill (SillyTavern's); else by `seed`. */
  fresh?: boolean;
}

/** The most dice one `{{roll}}` throws, and the most sides a die has: more is left as written. */
const MOST_DICE = 100;
const MOST_SIDES = 1_000_000;

/**
 * A number in [0, 1) that only `seed` and `place` decide: a card's choices in a chat's greeting
 * (or its `{{pick}}`s) are the same each time it is filled.
 */
function seeded(seed: string, place: string): number {
  return createHash('sha256').update(`${seed}\0${place}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The choices of a `{{random}}` or `{{pick}}` list, as SillyTavern splits them: on `::` where
 * the list has it, else on commas, each choice trimmed (`\,` is a comma in a choice).
 */
function choicesOf(list: string): string[] {
  if (list.includes('::')) return list.split('::');
  return list.split(/(?<!\\),/).map((choice) => choice.replaceAll('\\,', ',').trim());
}

/** The longest dice formula read: a longer one is no throw anyone writes. */
const LONGEST_FORMULA = 32;

/** `{{roll:2d6+1}}`'s throw (`d6` and `6` are one die), or `null` for what is not dice. */
function roll(formula: string, chance: () => number): string | null {
  if (formula.length > LONGEST_FORMULA) return null;
  const dice = /^(\d{0,3})d(\d{1,7})(?:([+-])(\d{1,7}))?$|^(\d{1,7})$/i.exec(
    formula.replace(/\s+/g, ''),
  );
  if (!dice) return null;
  const count = dice[1] ? Number(dice[1]) : 1;
  const sides = Number(dice[2] ?? dice[5]);
  if (count < 1 || count > MOST_DICE || sides < 1 || sides > MOST_SIDES) return null;
  let total = dice[4] ? Number(dice[4]) * (dice[3] === '-' ? -1 : 1) : 0;
  for (let die = 0; die < count; die++) total += 1 + Math.floor(chance() * sides);
  return String(total);
}

/**
 * `text` without its `{{// notes}}`. Read by hand, not by a pattern: a text of many `{{//`
 * never closed would have a lazy pattern read it to its end from each of them.
 */
function withoutNotes(text: string): string {
  let kept = '';
  let from = 0;
  for (let open = text.indexOf('{{//'); open >= 0; open = text.indexOf('{{//', from)) {
    const close = noteEnd(text, open + 4);
    if (close < 0) break;
    kept += text.slice(from, open);
    from = close;
  }
  return kept + text.slice(from);
}

/**
 * Where a note opened before `from` ends (after its `}}`), macros inside it (`{{char}}`) passed
 * over whole, as SillyTavern fills them before it takes notes out; -1 when it never closes.
 */
function noteEnd(text: string, from: number): number {
  let depth = 0;
  for (let at = from; at < text.length - 1; at++) {
    if (text[at] === '{' && text[at + 1] === '{') {
      depth++;
      at++;
    } else if (text[at] === '}' && text[at + 1] === '}') {
      if (depth === 0) return at + 2;
      depth--;
      at++;
    }
  }
  return -1;
}

/**
 * `text` without its `{{trim}}`s and the line breaks on either side of each (taken off by hand:
 * a pattern of optional line breaks before it would read a long run of them again from each).
 */
function withoutTrims(text: string): string {
  const parts = text.split(/\{\{trim\}\}/i);
  if (parts.length === 1) return text;
  return parts
    .map((part, index) => {
      let start = 0;
      let end = part.length;
      if (index > 0)
        while (start < end && (part[start] === '\n' || part.startsWith('\r\n', start)))
          start += part[start] === '\r' ? 2 : 1;
      if (index < parts.length - 1)
        while (end > start && part[end - 1] === '\n') end -= part[end - 2] === '\r' ? 2 : 1;
      return part.slice(start, end);
    })
    .join('');
}

/**
 * A character card's text with SillyTavern's macros filled, as cards made there expect them:
 * `{{// a note}}` and `{{noop}}` taken out, `{{newline}}` a line break, `{{trim}}` taken out with
 * the line breaks around it, `{{random::a::b}}` (or `{{random:a,b}}`) one of its choices,
 * `{{pick::a::b}}` one chosen once for the chat, `{{roll:2d6}}` a throw of the dice, then
 * `{{char}}` and `{{user}}` (V1: `<BOT>`, `<USER>`) the names. Names go in last and by a
 * function: a name that reads as a macro ("{{random::…}}", "$&") stays as written. Macros this
 * does not know (`{{time}}`: the server does not know the person's time zone) stay as written.
 */
export function fillCardMacros(text: string, names: MacroNames, options: MacroOptions): string {
  if (!text.includes('{{') && !text.includes('<')) return text;
  let place = 0;
  const filled = withoutTrims(withoutNotes(text))
    .replace(/\{\{noop\}\}/gi, '')
    .replace(/\{\{newline\}\}/gi, '\n')
    .replace(
      // SillyTavern's spellings: `{{random::a::b}}`, `{{random:a,b}}`, `{{roll:d6}}`, `{{roll 2d6}}`.
      /\{\{(random|pick)\s?::?((?:[^{}]|\{\{(?:char|user)\}\})*)\}\}|\{\{roll[ :]([^{}]*)\}\}/gi,
      (macro, name: string | undefined, list: string | undefined, formula: string | undefined) => {
        const kind = name?.toLowerCase() ?? 'roll';
        const at = ++place;
        let draw = 0;
        // Each draw its own chance (a seeded 2d6 is not two equal dice).
        const chance = () =>
          options.fresh && kind !== 'pick'
            ? Math.random()
            : seeded(options.seed, `${kind}\0${at}\0${draw++}\0${macro}`);
        if (formula !== undefined) return roll(formula, chance) ?? macro;
        const choices = choicesOf(list ?? '');
        return choices[Math.floor(chance() * choices.length)] ?? '';
      },
    );
  return fillNames(filled, names);
}

/**
 * Replaces the Character Card macros `{{char}}` and `{{user}}`, and their V1 spellings `<BOT>`
 * and `<USER>` (any case), and nothing else: for what people and models wrote. The names go in
 * through a function, so `$&`, `$'` and `$1` in a name stay as written: as a replacement string
 * they would expand, and a name of fifty `$'` blew a prompt up to hundreds of megabytes.
 */
export function fillNames(text: string, names: MacroNames): string {
  return text.replace(/\{\{(char|user)\}\}|<(bot|user)>/gi, (_, macro?: string, v1?: string) =>
    (macro ?? v1)!.toLowerCase() === 'user' ? names.user : names.char,
  );
}
