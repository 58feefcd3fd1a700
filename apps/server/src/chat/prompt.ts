import { LRUCache } from 'lru-cache';
import type { MateTable, PersonaTable } from '../db/schema';
import type { ChatTurn, LanguageModel } from '../llm/language-model';
import { calledLore, type Lorebook } from '../cards/lorebook';
import { fillCardMacros, fillNames, type MacroNames } from '../cards/card-macros';

/** What a prompt is built from. */
export interface PromptSource {
  mate: Pick<
    MateTable,
    'name' | 'description' | 'personality' | 'scenario' | 'mes_example' | 'system_prompt'
  >;
  /** The persona the user plays, or `null`. */
  persona: Pick<PersonaTable, 'name' | 'description'> | null;
  /** The user's name when no persona is set. */
  userName: string;
  /** The language to answer in (BCP 47). */
  language: string;
  /**
   * The conversation so far, oldest first; the last turn is the one to answer. In a group, a
   * mate message another member wrote names it in `speaker` (none: the mate answering).
   */
  history: { role: 'user' | 'mate'; content: string; speaker?: string }[];
  /** What the mate remembers of the chat, if anything (see {@link PromptMemory}). */
  memory?: PromptMemory;
  /** In a group chat: the scene, and who else is in it (see {@link PromptGroup}). */
  group?: PromptGroup;
  /**
   * The card's post-history instructions (Character Card V2 `post_history_instructions`): a
   * system turn after the history, the last thing the model reads before it answers.
   */
  instructions?: string;
  /** The card's lorebook (Character Card V2 `character_book`), if it has one in use. */
  lore?: Lorebook | null;
  /**
   * The chat the prompt is for (its room's id): a card's `{{pick}}` chooses the same in each of
   * its prompts (see `fillCardMacros`).
   */
  seed?: string;
}

/** What a mate's prompt says of its group. */
export interface PromptGroup {
  /** The group's scenario (in place of the card's when set). */
  scenario: string;
  /** The other members: their names and a few words of who they are. */
  others: { name: string; about: string }[];
}

/** What a mate remembers, as a prompt takes it. */
export interface PromptMemory {
  /** Pinned memories: always in the prompt (within the memory's share of it). */
  pinned: string[];
  /** The running summary of the story so far, or `null`. */
  summary: string | null;
  /** Facts about the person from their other chats with the mate. */
  acrossChats: string[];
  /** The other facts, most relevant to the last messages first: as many as fit go in. */
  recalled: string[];
  /**
   * The same facts newest first: an order that stays from message to message, which they take
   * when they all fit (absent: `recalled`'s).
   */
  newest?: string[];
}

/** The parts of what a mate remembers, as a prompt holds them. */
export type MemoryPartKind = Exclude<keyof PromptMemory, 'newest'>;

/** The most of a prompt's room (after the reply's) that memories may take. */
export const MEMORY_SHARE = 0.25;

/** The most of a prompt's room (after the reply's) that a card's post-history instructions take. */
export const INSTRUCTIONS_SHARE = 0.2;

/** The most of a prompt's room (after the reply's) that the lorebook's entries take. */
export const LORE_SHARE = 0.2;

/** What each part of a built prompt holds and costs, for "What the mate sees". */
export interface PromptReport {
  /** The card, persona and language, and its tokens. */
  character: { text: string; tokens: number };
  /** The lorebook's entries the last messages called for, as they went in, and their tokens. */
  lore: { items: string[]; tokens: number };
  /** The memories that went in, by part, with their tokens (empty parts included). */
  memory: Record<MemoryPartKind, { items: string[]; tokens: number }>;
  /** Whether the recalled facts went after the history (not all fit), else in the system turn. */
  recalledAfterHistory: boolean;
  /** The history's turns that went in (the newest), and their tokens. */
  history: { turns: ChatTurn[]; tokens: number };
  /** The card's post-history instructions as they went in after the history, and their tokens. */
  instructions: { text: string; tokens: number };
  /** How many turns of the history it was given were left out (the oldest). */
  leftOut: number;
  /** The names the turns are written with. */
  names: { char: string; user: string };
}

/** A prompt: the turns for the model, and what each part of it is. */
export interface BuiltPrompt {
  turns: ChatTurn[];
  report: PromptReport;
  /**
   * Where the reply ends should the model go on to write someone else's line, as the history
   * writes lines: a new line that starts with the person's name and a colon (in a group, another
   * member's too). At most four, the person's first (OpenAI takes four stop sequences).
   */
  stop: string[];
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
/**
 * Names already looked up: every prompt asks, and ICU took about a tenth of a millisecond a
 * call while fifty sends arrived at once (#20). Tags come from callers, so the kept ones are
 * bounded (lru-cache).
 */
const namesKept = new LRUCache<string, string>({ max: 500 });

/** An English name for a language tag, e.g. `es` → "Spanish". */
export function languageName(tag: string): string {
  let name = namesKept.get(tag);
  if (name === undefined) {
    try {
      name = languageNames.of(tag) ?? tag;
    } catch {
      name = tag;
    }
    namesKept.set(tag, name);
  }
  return name;
}

/**
 * Replaces `{{char}}` and `{{user}}` (V1: `<BOT>`, `<USER>`) and no other macro: for what people
 * and models wrote (see `fillNames`); a card's own text takes them all (see {@link cardText}).
 */
export function fillMacros(text: string, names: MacroNames): string {
  return fillNames(text, names);
}

/** A card's text (its prompt, lore, instructions) with SillyTavern's macros filled, anew. */
function cardText(text: string, names: MacroNames, source: PromptSource): string {
  return fillCardMacros(text, names, { seed: source.seed ?? '', fresh: true });
}

/**
 * The system prompt: the card's own, or one built from its fields; then persona and language.
 * Each part is filled on its own: the card's text takes SillyTavern's macros (see
 * {@link cardText}), what people wrote (the persona, a group's scene) and our own wording only
 * the names; a note left open in one field never reaches into the next.
 */
export function systemPrompt(source: PromptSource): string {
  const { mate, persona, group } = source;
  const names = { char: mate.name, user: persona?.name ?? source.userName };
  const card = (text: string) => cardText(text, names, source);
  const named = (text: string) => fillNames(text, names);
  const parts: string[] = [];
  const scenario = group?.scenario.trim()
    ? named(group.scenario.trim())
    : card(mate.scenario.trim());
  // In a group, every speaker is told it is one of several, whatever its card says.
  const inGroup = group
    ? `You are ${names.char} in a group roleplay chat with ${[names.user, ...group.others.map((other) => other.name)].join(', ')}. Stay in character; write only ${names.char}'s words and actions, never anyone else's, and do not start with your name.`
    : null;
  // The prompt built from the card's fields, which a card's own system prompt replaces.
  const builtIn = () => {
    const own = [
      inGroup ??
        `You are ${names.char} in a roleplay chat with ${names.user}. Stay in character; write only ${names.char}'s words and actions, never ${names.user}'s.`,
    ];
    const description = card(mate.description.trim());
    if (description) own.push(`About ${names.char}: ${description}`);
    const personality = card(mate.personality.trim());
    if (personality) own.push(`${names.char}'s personality: ${personality}`);
    if (scenario) own.push(`Scenario: ${scenario}`);
    const examples = card(mate.mes_example.replace(/<START>/gi, '').trim());
    if (examples) own.push(`Examples of how ${names.char} talks:\n${examples}`);
    return own.join('\n\n');
  };
  const cardPrompt = mate.system_prompt.trim();
  if (!cardPrompt) parts.push(builtIn());
  // Character Card V2: `{{original}}` in the card's own stands for the prompt it replaces.
  else if (/\{\{original\}\}/i.test(cardPrompt)) {
    const original = builtIn();
    parts.push(
      cardPrompt
        .split(/\{\{original\}\}/i)
        .map(card)
        .join(original),
    );
  } else {
    parts.push(card(cardPrompt));
    if (inGroup) parts.push(inGroup);
    if (group && scenario) parts.push(`Scenario: ${scenario}`);
  }
  if (group && group.others.length > 0)
    parts.push(
      `Also here:\n${group.others.map((other) => `- ${other.name}${other.about ? `: ${card(other.about)}` : ''}`).join('\n')}`,
    );
  if (persona?.description.trim())
    parts.push(`About ${names.user}: ${named(persona.description.trim())}`);
  parts.push(`Always answer in ${languageName(source.language)}.`);
  return parts.filter(Boolean).join('\n\n');
}

/** What a prompt needs of its model: its tokens, its context and its template's cost a turn. */
export type PromptModel = Pick<LanguageModel, 'countTokens' | 'contextSize' | 'turnTokens'>;

/**
 * The tokens counted for the chat template's marks around each turn: the model's own figure
 * where it knows it, never under 8 (a margin as the prompt was always counted with).
 */
export function turnMarkTokens(model: Pick<LanguageModel, 'turnTokens'>): number {
  return Math.max(8, Math.ceil(model.turnTokens ?? 0));
}

/**
 * The turns to send: the system prompt, then as much recent history as fits the model's
 * context after room for the reply, counted in the model's tokens. The turn being answered
 * is always kept (cut to fit if it alone is too long).
 */
export function buildTurns(
  source: PromptSource,
  model: PromptModel,
  replyTokens: number,
): ChatTurn[] {
  return buildPrompt(source, model, replyTokens).turns;
}

/**
 * A prompt within the model's context after room for the reply: the system turn (the card, at
 * most 60% of the room; the lorebook's entries called; then what the mate remembers, at most
 * {@link MEMORY_SHARE}: pinned memories, the summary, facts from other chats, the other facts),
 * then as much of the newest history as fits, then a system turn after the turn being answered:
 * the card's post-history instructions, and before them the facts when not all of them fit.
 * The turn being answered is always kept (cut to fit if it alone is too long). The report says
 * what each part holds and costs.
 *
 * Every prompt of a chat should begin as the last one did, so that a model that keeps what it
 * read (the embedded model's sequences, a provider's prompt cache) reads only the new words.
 * Facts that all fit go in the system turn newest first, an order that stays. Where they do not
 * all fit, those most relevant to the last messages go in, a choice and an order that change
 * with each message: in the system turn they made the whole card and history be read again at
 * each message, so they go after the history, next to the message they were recalled for, and
 * only they and the new words are read.
 */
export function buildPrompt(
  source: PromptSource,
  model: PromptModel,
  replyTokens: number,
): BuiltPrompt {
  const names = { char: source.mate.name, user: source.persona?.name ?? source.userName };
  const available = model.contextSize - replyTokens;
  const character = fitSystemPrompt(systemPrompt(source), model, Math.floor(available * 0.6));
  const characterTokens = model.countTokens(character);
  const lore = fitLore(source, names, model, available);
  const memory = fitMemory(source.memory, names, model, Math.floor(available * MEMORY_SHARE));
  const system: ChatTurn = {
    role: 'system',
    content: [character, ...lore.items, memory.lasting].filter(Boolean).join('\n\n'),
  };
  const instructions = cardInstructions(source, names, model, available);
  // After the turn answered: the facts recalled for it (not all fit), the card's instructions.
  const after = [memory.recalled, instructions.text].filter(Boolean).join('\n\n');
  // A margin for the chat template's own tokens around each turn (and the turn after).
  const mark = turnMarkTokens(model);
  let budget =
    available -
    characterTokens -
    lore.tokens -
    memory.tokens -
    2 * mark -
    (after ? instructions.tokens + mark : 0);
  const kept: ChatTurn[] = [];
  let historyTokens = 0;
  for (let index = source.history.length - 1; index >= 0; index -= 1) {
    const message = source.history[index]!;
    const turn = historyTurn(message, names, source.group !== undefined);
    const cost = model.countTokens(turn.content) + mark;
    if (cost > budget) {
      if (kept.length === 0) {
        const content = endThatFits(turn.content, model, Math.max(0, budget - mark));
        kept.unshift({ ...turn, content });
        historyTokens += model.countTokens(content) + mark;
      }
      break;
    }
    budget -= cost;
    historyTokens += cost;
    kept.unshift(turn);
  }
  const speakers = [names.user, ...(source.group?.others.map((other) => other.name) ?? [])];
  return {
    stop: [...new Set(speakers.filter((name) => name.trim()))]
      .slice(0, 4)
      .map((name) => `\n${name}:`),
    turns: [system, ...kept, ...(after ? [{ role: 'system' as const, content: after }] : [])],
    report: {
      character: { text: character, tokens: characterTokens },
      lore,
      memory: memory.parts,
      recalledAfterHistory: memory.recalledAfterHistory,
      history: { turns: kept, tokens: historyTokens },
      instructions,
      leftOut: source.history.length - kept.length,
      names,
    },
  };
}

/**
 * The card's post-history instructions as they go in (macros filled; `{{original}}`, which in
 * SillyTavern stands for its own global instructions, has none here and is taken out), within
 * {@link INSTRUCTIONS_SHARE} of the prompt's room, their start kept; blank: none.
 */
function cardInstructions(
  source: PromptSource,
  names: { char: string; user: string },
  model: Pick<LanguageModel, 'countTokens'>,
  available: number,
): { text: string; tokens: number } {
  const written = (source.instructions ?? '').replace(/\{\{original\}\}/gi, '').trim();
  if (!written) return { text: '', tokens: 0 };
  const limit = Math.floor(available * INSTRUCTIONS_SHARE);
  const filled = cardText(written, names, source);
  const cost = model.countTokens(filled);
  const text =
    cost <= limit
      ? filled
      : longestFitting(
          // Never the first half of a surrogate pair (an emoji cut in two).
          (length) =>
            filled
              .slice(0, length)
              .replace(/[\uD800-\uDBFF]$/, '')
              .trimEnd(),
          (part) => model.countTokens(part) <= limit,
          { total: filled.length, cost, limit },
        );
  return text ? { text, tokens: model.countTokens(text) } : { text: '', tokens: 0 };
}

/**
 * The lorebook entries the last messages call for (see `calledLore`), macros filled, each whole
 * or not at all, the most important first, within the card's token budget and
 * {@link LORE_SHARE} of the prompt's room; in the prompt in their `order`.
 */
function fitLore(
  source: PromptSource,
  names: MacroNames,
  model: Pick<LanguageModel, 'countTokens'>,
  available: number,
): { items: string[]; tokens: number } {
  if (!source.lore) return { items: [], tokens: 0 };
  const called = calledLore(
    source.lore,
    source.history.map((turn) => turn.content),
  );
  const limit = Math.min(source.lore.tokenBudget ?? Infinity, Math.floor(available * LORE_SHARE));
  let tokens = 0;
  const kept: { order: number; text: string }[] = [];
  for (const entry of called) {
    const text = cardText(entry.content, names, source);
    // Each with the blank line before it.
    const cost = model.countTokens(text) + 1;
    if (tokens + cost > limit) continue;
    tokens += cost;
    kept.push({ order: entry.order, text });
  }
  kept.sort((a, b) => a.order - b.order);
  return { items: kept.map((entry) => entry.text), tokens };
}

/**
 * One message as a turn of the prompt. In a group, the speaker's own replies are its turns
 * (`assistant`); everyone else's words are `user` turns that say who speaks ("Kai: …").
 */
function historyTurn(
  message: PromptSource['history'][number],
  names: { char: string; user: string },
  inGroup: boolean,
): ChatTurn {
  const content = fillMacros(message.content, names);
  if (!inGroup) return { role: message.role === 'mate' ? 'assistant' : 'user', content };
  if (message.role === 'mate' && message.speaker === undefined)
    return { role: 'assistant', content };
  const who = message.role === 'user' ? names.user : (message.speaker ?? names.char);
  return { role: 'user', content: `${who}: ${content}` };
}

/**
 * The longest of `cut(length)` (a part of a text `length` characters long; the whole is `total`
 * characters and costs `cost` tokens) that `fits`: its share of the text by length first, then
 * shorter by halving while it counts more (tokens do not spread evenly over a text: English,
 * then emoji or Chinese, has most of its tokens at its end, and the other way round at its
 * start).
 */
export function longestFitting(
  cut: (length: number) => string,
  fits: (part: string) => boolean,
  text: { total: number; cost: number; limit: number },
): string {
  let high = Math.floor((text.total * text.limit) / text.cost);
  if (fits(cut(high))) return cut(high);
  let low = 0;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(cut(middle))) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}

/** The longest end of `text` within `limit` tokens (see {@link longestFitting}). */
function endThatFits(
  text: string,
  model: Pick<LanguageModel, 'countTokens'>,
  limit: number,
): string {
  const cost = model.countTokens(text);
  if (cost <= limit) return text;
  // Never from the second half of a surrogate pair (an emoji cut in two).
  const end = (length: number) => {
    const from = text.length - length;
    return text.slice(/[\uDC00-\uDFFF]/.test(text[from] ?? '') ? from + 1 : from);
  };
  return longestFitting(end, (part) => model.countTokens(part) <= limit, {
    total: text.length,
    cost,
    limit,
  });
}

/** The headings of the memory's parts, in the order they go in. */
const MEMORY_HEADINGS: Record<MemoryPartKind, string> = {
  pinned: '{{char}} always remembers:',
  summary: 'The story so far:',
  acrossChats: '{{char}} knows about {{user}} from other chats:',
  recalled: '{{char}} also remembers:',
};
const MEMORY_ORDER = ['pinned', 'summary', 'acrossChats', 'recalled'] as const;

/**
 * What of `memory` fits in `limit` tokens, part by part in {@link MEMORY_ORDER}, each item
 * whole or not at all (a summary too long for what is left keeps its end: the latest events):
 * the text for the system turn, and the recalled facts' for after the history when not all of
 * them fit (else they go in the system turn newest first; see {@link buildPrompt}).
 */
function fitMemory(
  memory: PromptMemory | undefined,
  names: { char: string; user: string },
  model: Pick<LanguageModel, 'countTokens'>,
  limit: number,
): {
  lasting: string;
  recalled: string;
  tokens: number;
  parts: PromptReport['memory'];
  recalledAfterHistory: boolean;
} {
  const parts: PromptReport['memory'] = {
    pinned: { items: [], tokens: 0 },
    summary: { items: [], tokens: 0 },
    acrossChats: { items: [], tokens: 0 },
    recalled: { items: [], tokens: 0 },
  };
  if (!memory) return { lasting: '', recalled: '', tokens: 0, parts, recalledAfterHistory: false };
  let left = limit;
  const sections: { kind: MemoryPartKind; text: string }[] = [];
  for (const kind of MEMORY_ORDER) {
    const items = kind === 'summary' ? (memory.summary ? [memory.summary] : []) : memory[kind];
    if (items.length === 0) continue;
    const heading = fillMacros(MEMORY_HEADINGS[kind], names);
    const headingTokens = model.countTokens(heading) + 1;
    if (headingTokens >= left) break;
    const lines: string[] = [];
    let used = headingTokens;
    for (const written of items) {
      const item = fillMacros(written, names);
      const line = kind === 'summary' ? item : `- ${item}`;
      const cost = model.countTokens(line) + 1;
      if (used + cost <= left) {
        lines.push(line);
        parts[kind].items.push(item);
        used += cost;
      } else if (kind === 'summary') {
        // The end of the story is what the next reply follows from: as much of it as fits
        // (a tenth less than the share, as tokens do not spread evenly over the text).
        const room = left - used - 2;
        if (room >= 8) {
          const end = `…${item.slice(Math.floor(item.length * (1 - (0.9 * room) / cost)))}`;
          const endTokens = model.countTokens(end) + 1;
          if (used + endTokens <= left) {
            lines.push(end);
            parts[kind].items.push(end);
            used += endTokens;
          }
        }
      } else break; // In their order: the rest counts for nothing once one does not fit.
    }
    if (lines.length === 0) continue;
    sections.push({ kind, text: `${heading}\n${lines.join('\n')}` });
    parts[kind].tokens = used;
    left -= used;
  }
  // Each line was counted with its break; the sections' blank lines and the one before them
  // are about a token each (counting the whole again would tokenize it twice).
  const tokens = limit - left + (sections.length > 0 ? sections.length + 1 : 0);
  const recalled = sections.find((section) => section.kind === 'recalled');
  const allFit = parts.recalled.items.length === memory.recalled.length;
  if (recalled && allFit && memory.newest?.length === memory.recalled.length) {
    // Every fact went in: in an order that stays, so that the system turn does too.
    parts.recalled.items = memory.newest.map((fact) => fillMacros(fact, names));
    recalled.text = [
      fillMacros(MEMORY_HEADINGS.recalled, names),
      ...parts.recalled.items.map((item) => `- ${item}`),
    ].join('\n');
  }
  // Where not all fit, those chosen for the message: after the history.
  const after = allFit ? undefined : recalled;
  return {
    lasting: sections
      .filter((section) => section !== after)
      .map((section) => section.text)
      .join('\n\n'),
    recalled: after?.text ?? '',
    tokens,
    parts,
    recalledAfterHistory: after !== undefined,
  };
}

// A card can be longer than a small model's context: keep its start (who the character is)
// and the closing language line, and cut the middle.
function fitSystemPrompt(
  text: string,
  model: Pick<LanguageModel, 'countTokens'>,
  limit: number,
): string {
  // No token is longer than this many characters on average: what lies past it can never
  // fit, so a card of 50,000-character fields is never tokenized whole.
  const maxChars = limit * 16;
  if (text.length <= maxChars && model.countTokens(text) <= limit) return text;
  const lastBreak = text.lastIndexOf('\n\n');
  const ending = lastBreak >= 0 ? text.slice(lastBreak) : '';
  const body = text.slice(0, Math.min(text.length - ending.length, maxChars));
  const cut = (keep: number) => `${body.slice(0, keep).trimEnd()}${ending}`;
  // The longest start of the body that fits: tokens grow with length, so search for it.
  let low = 0;
  let high = body.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (model.countTokens(cut(middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}
