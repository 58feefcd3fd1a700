const LONGEST = 160;

/** SillyTavern's macros and their V1 spellings, as a reader of a tagline should see them. */
export function resolveMacros(text: string, name: string): string {
  return text
    .replace(/(?:\{\{user\}\}|<user>)['’]s\b/gi, 'your')
    .replace(/\{\{user\}\}|<user>/gi, 'you')
    .replace(/\{\{char\}\}|<bot>/gi, name)
    .replace(/\{\{[^{}]*\}\}/g, '');
}

function firstSentence(text: string): string {
  const paragraph =
    text
      .split(/\n\s*\n?/)
      .find((line) => line.trim())
      ?.trim() ?? '';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(paragraph)?.[0] ?? paragraph;
  if (sentence.length <= LONGEST) return sentence;
  // Cut between words, never inside one.
  const cut = sentence.slice(0, LONGEST);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > 0 ? space : LONGEST).replace(/[\s,;:–-]+$/, '')}…`;
}

/**
 * A tagline for a card that has none: the description's first sentence with `{{user}}` as
 * "you" and `{{char}}` as the name, capitalized and ended as a sentence, at most 161 characters.
 */
export function cardTagline(name: string, description: string): string {
  const sentence = firstSentence(resolveMacros(description, name)).replace(/[ \t]+/g, ' ');
  if (!sentence) return 'An imported character.';
  const capitalized = sentence[0]!.toUpperCase() + sentence.slice(1);
  return /[.!?…]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
