import { GROUP_LIMITS, type GroupTurnOrder } from '@mates/api-client';

/** A member as the turn-taking sees it: a mate still in the group. */
export interface TurnMember {
  mateId: string;
  name: string;
  muted: boolean;
  /** 0 to 1. */
  talkativeness: number;
}

/** Without accents, its case kept ("Ángel" is written as "Angel" is). */
const unaccented = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');

/** Lower case without accents, for names said any way. */
const fold = (text: string) => unaccented(text).toLowerCase();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Words of a name that name nobody on their own: articles and titles ("The Oracle", "Captain
 * Ione Vask", "Dr. Mira Solberg"), in the app's languages.
 */
const NOT_A_NAME = new Set(
  (
    'the a an of and el la le les los las lo un una de del della di da der die das von van ' +
    'dr mr mrs ms miss sir lady lord captain capt king queen prince princess professor prof ' +
    'doctor saint st general commander agent officer detective master mistress madam madame ' +
    'senor senora don dona monsieur mademoiselle herr frau'
  ).split(' '),
);

/**
 * Names that are everyday words as well ("I will go", "I hope so"): one of these names a
 * member only as a name is written, with a capital or after an `@` ("Will", "WILL", "@will").
 * At a sentence's start, "Will you…" still does: there the words look alike.
 */
const ALSO_A_WORD = new Set(
  (
    'will may grace hope joy faith rose june april august summer autumn winter dawn sky max ' +
    'mark bill pat sue art frank rich ray jack rob guy sunny star storm river ivy ruby pearl ' +
    'amber jade iris lily daisy holly violet angel honey candy raven wolf fox hunter chase drew ' +
    'dean earl duke page reed penny destiny harmony melody cliff dale glen brook sandy misty ' +
    'crystal echo sage ash fern hazel basil poppy ginger shadow blue red grant miles carol'
  ).split(' '),
);

/**
 * Words that, straight after an {@link ALSO_A_WORD} opening a sentence, make it the word rather
 * than a name: "Will you…", "Hope I'm not late", "May we…" ("Will, you…" and "Will said" are
 * names).
 */
const PRONOUN_AFTER =
  /^ +(?:you|i|we|they|he|she|it|i'm|i’m|you're|you’re|we're|we’re)(?![\p{L}\p{N}'’])/iu;

/** Where `word` (one of {@link ALSO_A_WORD}) is written as a name in `content`, or -1. */
function writtenAsName(content: string, word: string): number {
  const capital = word[0]!.toUpperCase() + word.slice(1);
  const edge = '(?![\\p{L}\\p{N}])';
  const asName = new RegExp(
    `(^|[^\\p{L}\\p{N}@])(?:${capital}|${word.toUpperCase()})${edge}`,
    'gu',
  );
  const mentioned = new RegExp(`(^|[^\\p{L}\\p{N}])@${word}${edge}`, 'iu');
  let written: number | undefined;
  for (const match of content.matchAll(asName)) {
    const start = match.index + match[1]!.length;
    const opensSentence = /(?:^|[.!?…]\s+|\n\s*)$/u.test(content.slice(0, start));
    if (opensSentence && PRONOUN_AFTER.test(content.slice(start + word.length))) continue;
    written = match.index;
    break;
  }
  const at = [written, mentioned.exec(content)?.index].filter((index) => index !== undefined);
  return at.length > 0 ? Math.min(...at) : -1;
}

/**
 * The members named in a message, in the order they are first named: by their whole name or by
 * a word of it (two letters or more, not an article or a title, not in another member's name),
 * as a word of its own, in any case and with or without accents ("lyra", "Lyra Moonwhisper",
 * "@Lyra", "Vask"); a name that is an everyday word as well, only as a name is written
 * ({@link ALSO_A_WORD}).
 */
export function mentionedIn(content: string, members: readonly TurnMember[]): string[] {
  // Read as `text` is, its case kept: an everyday-word name is told by how it is written.
  const plain = unaccented(content);
  const text = plain.toLowerCase();
  const found: { mateId: string; at: number }[] = [];
  const wordsOf = (whole: string) =>
    whole
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 2 && !NOT_A_NAME.has(word) && word !== whole);
  // A word in two members' names ("Kai Tanaka", "Kai Rivers") names neither on its own.
  const seen = new Map<string, number>();
  for (const member of members)
    for (const word of new Set(wordsOf(fold(member.name).trim())))
      seen.set(word, (seen.get(word) ?? 0) + 1);
  for (const member of members) {
    const whole = fold(member.name).trim();
    const words = wordsOf(whole).filter((word) => seen.get(word) === 1);
    let at = -1;
    for (const form of [whole, ...words]) {
      if (!form) continue;
      const index = ALSO_A_WORD.has(form)
        ? writtenAsName(plain, form)
        : (new RegExp(`(^|[^\\p{L}\\p{N}])${escape(form)}(?![\\p{L}\\p{N}])`, 'u').exec(text)
            ?.index ?? -1);
      if (index >= 0 && (at < 0 || index < at)) at = index;
    }
    if (at >= 0) found.push({ mateId: member.mateId, at });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.mateId);
}

/**
 * Who answers a message of the person, in order: the members it names first (muted ones too:
 * naming a mate asks it), then by the group's order — `natural`: each other unmuted member
 * that its talkativeness draws (at least one speaks: one unmuted member by lot if none was
 * named or drawn), `list`: every other unmuted member in the list's order, `manual`: nobody
 * more. At most {@link GROUP_LIMITS.repliesPerTurn}.
 */
export function planTurn(
  members: readonly TurnMember[],
  order: GroupTurnOrder,
  content: string,
  random: () => number = Math.random,
): string[] {
  const named = mentionedIn(content, members);
  const others = members.filter((member) => !member.muted && !named.includes(member.mateId));
  let more: string[] = [];
  if (order === 'list') more = others.map((member) => member.mateId);
  else if (order === 'natural') {
    more = others
      .filter((member) => random() < member.talkativeness)
      .map((member) => member.mateId);
    if (named.length === 0 && more.length === 0 && others.length > 0)
      more = [others[Math.floor(random() * others.length)]!.mateId];
  }
  return [...named, ...more].slice(0, GROUP_LIMITS.repliesPerTurn);
}

/**
 * Who speaks on "Continue": by the list's order, the unmuted member after the last speaker
 * (`list` and `manual`), or, `natural`, one drawn by talkativeness among the unmuted members
 * other than the last speaker. With every member muted, the muted ones take their turn.
 * `null` in a group with no member.
 */
export function nextSpeaker(
  members: readonly TurnMember[],
  order: GroupTurnOrder,
  lastSpeakerId: string | null,
  random: () => number = Math.random,
): string | null {
  if (members.length === 0) return null;
  const unmuted = members.filter((member) => !member.muted);
  const pool = unmuted.length > 0 ? unmuted : members;
  if (order === 'natural') {
    const candidates = pool.length > 1 ? pool.filter((m) => m.mateId !== lastSpeakerId) : pool;
    // Talkativeness as weights; members of none still speak now and then.
    const weights = candidates.map((member) => Math.max(member.talkativeness, 0.05));
    let draw = random() * weights.reduce((sum, weight) => sum + weight, 0);
    for (const [index, member] of candidates.entries()) {
      draw -= weights[index]!;
      if (draw < 0) return member.mateId;
    }
    return candidates.at(-1)!.mateId;
  }
  const last = members.findIndex((member) => member.mateId === lastSpeakerId);
  for (let step = 1; step <= members.length; step += 1) {
    const member = members[(last + step) % members.length]!;
    if (pool.includes(member)) return member.mateId;
  }
  return pool[0]!.mateId;
}
