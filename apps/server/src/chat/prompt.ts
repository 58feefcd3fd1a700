import { LRUCache } from 'lru-cache';
import type { MateTable, PersonaTable } from '../db/schema';
import type { ChatTurn, LanguageModel } from '../llm/language-model';

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
  /** The conversation so far, oldest first; the last turn is the one to answer. */
  history: { role: 'user' | 'mate'; content: string }[];
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
 * Replaces the Character Card macros `{{char}}` and `{{user}}` (any case). The names go in
 * through a function, so `$&`, `$'` and `$1` in a name stay as written: as a replacement
 * string they would expand, and a name of fifty `$'` blew a prompt up to hundreds of megabytes.
 */
export function fillMacros(text: string, names: { char: string; user: string }): string {
  return text.replace(/\{\{(char|user)\}\}/gi, (_, macro: string) =>
    macro.toLowerCase() === 'char' ? names.char : names.user,
  );
}

/** The system prompt: the card's own, or one built from its fields; then persona and language. */
export function systemPrompt(source: PromptSource): string {
  const { mate, persona } = source;
  const parts: string[] = [];
  if (mate.system_prompt.trim()) parts.push(mate.system_prompt.trim());
  else {
    parts.push(
      `You are {{char}} in a roleplay chat with {{user}}. Stay in character; write only {{char}}'s words and actions, never {{user}}'s.`,
    );
    if (mate.description.trim()) parts.push(`About {{char}}: ${mate.description.trim()}`);
    if (mate.personality.trim()) parts.push(`{{char}}'s personality: ${mate.personality.trim()}`);
    if (mate.scenario.trim()) parts.push(`Scenario: ${mate.scenario.trim()}`);
    const examples = mate.mes_example.replace(/<START>/gi, '').trim();
    if (examples) parts.push(`Examples of how {{char}} talks:\n${examples}`);
  }
  if (persona?.description.trim()) parts.push(`About {{user}}: ${persona.description.trim()}`);
  parts.push(`Always answer in ${languageName(source.language)}.`);
  return fillMacros(parts.join('\n\n'), {
    char: mate.name,
    user: persona?.name ?? source.userName,
  });
}

/**
 * The turns to send: the system prompt, then as much recent history as fits the model's
 * context after room for the reply, counted in the model's tokens. The turn being answered
 * is always kept (cut to fit if it alone is too long).
 */
export function buildTurns(
  source: PromptSource,
  model: Pick<LanguageModel, 'countTokens' | 'contextSize'>,
  replyTokens: number,
): ChatTurn[] {
  const names = { char: source.mate.name, user: source.persona?.name ?? source.userName };
  const available = model.contextSize - replyTokens;
  const system: ChatTurn = {
    role: 'system',
    content: fitSystemPrompt(systemPrompt(source), model, Math.floor(available * 0.6)),
  };
  // A margin for the chat template's own tokens around each turn.
  let budget = available - model.countTokens(system.content) - 16;
  const kept: ChatTurn[] = [];
  for (let index = source.history.length - 1; index >= 0; index -= 1) {
    const message = source.history[index]!;
    const turn: ChatTurn = {
      role: message.role === 'mate' ? 'assistant' : 'user',
      content: fillMacros(message.content, names),
    };
    const cost = model.countTokens(turn.content) + 8;
    if (cost > budget) {
      if (kept.length === 0) {
        const share = Math.max(0, budget - 8) / cost;
        kept.unshift({
          ...turn,
          content: turn.content.slice(Math.floor(turn.content.length * (1 - share))),
        });
      }
      break;
    }
    budget -= cost;
    kept.unshift(turn);
  }
  return [system, ...kept];
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
