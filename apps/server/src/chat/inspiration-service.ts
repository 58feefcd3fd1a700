import type { InspirationKind } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { refused } from '../domain/errors';
import { fittingTurns, loadConversation } from './conversation';
import { requireModel } from './model-refusal';
import { languageName } from './prompt';
import { canContinue, findOwnRoom } from './rooms';
import {
  completeText,
  forOneChat,
  parseJson,
  type GenerationDeps,
  type GenerationRequest,
} from './generation-service';

/** The JSON the model is held to for `count` suggestions (at least `min`). */
const suggestionsSchema = (min: number) => ({
  type: 'object',
  properties: {
    suggestions: { type: 'array', items: { type: 'string' }, minItems: min, maxItems: 3 },
  },
  required: ['suggestions'],
  additionalProperties: false,
});

/**
 * What `getInspiration` suggests: three short replies, or up to three picture prompts (each
 * at most 1,000 characters, the most `/room/createImage` takes).
 */
const INSPIRATIONS = {
  reply: { min: 3, maxChars: 300, maxTokens: 200 },
  picture: { min: 1, maxChars: 1000, maxTokens: 600 },
} as const satisfies Record<InspirationKind, { min: number; maxChars: number; maxTokens: number }>;

/** How much of the mate's description a picture suggestion is given, in characters. */
const LOOKS_CHARS = 2000;

/**
 * Up to three usable suggestions from the model's JSON (at least `min`), or a 5007 saying none
 * came.
 */
function readSuggestions(text: string, kind: InspirationKind): string[] {
  const { min, maxChars } = INSPIRATIONS[kind];
  const parsed = parseJson(text) as { suggestions?: unknown } | undefined;
  const suggestions = Array.isArray(parsed?.suggestions)
    ? parsed.suggestions
        .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
        .map((item) => item.trim().slice(0, maxChars).trim())
    : [];
  if (suggestions.length < min) throw refused('notices.chat.noSuggestions');
  return suggestions.slice(0, 3);
}

/** The out-of-character request for suggestions of `kind`. */
function inspirationAsk(
  kind: InspirationKind,
  names: { user: string; mate: string; looks: string; language: string },
): string {
  const { user, mate, looks, language } = names;
  if (kind === 'reply')
    return `(Out of character.) Suggest three short, different messages ${user} could send next to ${mate}, each under 20 words, written as ${user}, in ${language}. Answer with JSON: {"suggestions": ["…", "…", "…"]}.`;
  const described = looks.trim()
    ? ` How ${mate} looks, from the character's description: ${looks.trim().slice(0, LOOKS_CHARS)}`
    : '';
  return `(Out of character.) Suggest up to three different prompts for a picture generator, each showing the current scene of this chat as the last messages leave it: ${mate}'s appearance and clothes, what ${mate} is doing, the place, the light and the mood.${described} Write each prompt in English as one paragraph of visual details, under 120 words, describing people by their looks rather than their names. Answer with JSON: {"suggestions": ["…", "…", "…"]}.`;
}

/** One ask for suggestions: whose room, what kind, and in which language (a tag). */
export interface InspirationAsk extends GenerationRequest {
  user: UserTable;
  roomId: string;
  kind: InspirationKind;
  language: string;
}

/**
 * Suggestions for the user's room, for one chat: three messages they could send next, or
 * prompts for a picture of the scene. A room whose mate they may no longer see gets none.
 */
export async function getInspiration(deps: GenerationDeps, ask: InspirationAsk): Promise<string[]> {
  const { db } = deps;
  const { user, kind, language } = ask;
  const room = await findOwnRoom(db, user.id, ask.roomId);
  // A closed mate's card is not run for anyone but its creator, not even as suggestions.
  if (!(await canContinue(db, user, room))) throw refused('room.readOnly');
  const { maxTokens, min } = INSPIRATIONS[kind];
  const { turns } = await fittingTurns(
    async (recent) => {
      const conversation = await loadConversation(db, room, user, '', recent);
      const question = inspirationAsk(kind, {
        user: conversation.persona?.name ?? conversation.userName,
        mate: conversation.mate.name,
        looks: conversation.mate.description,
        language: languageName(language),
      });
      return {
        ...conversation,
        language,
        history: [...conversation.history, { role: 'user', content: question }],
      };
    },
    deps.chat.model,
    maxTokens,
  );
  requireModel(deps.chat.model);
  const spend = {
    reason: { key: 'ledger.reasons.inspiration' },
    refund: { key: 'ledger.reasons.inspirationNothingUsable' },
    reference: { type: 'room', id: room.id },
  } as const;
  return forOneChat(db, user.id, spend, async () =>
    readSuggestions(
      await completeText(deps, turns, { maxTokens, jsonSchema: suggestionsSchema(min) }, ask),
      kind,
    ),
  );
}
