import { Hono } from 'hono';
import { z } from 'zod';
import {
  GENDERS,
  REGENERABLE_FIELDS,
  type InspirationKind,
  type RegenerableField,
} from '@mates/api-client';
import { badInput, CODE, EnvelopeError, notice } from '../http/envelope';
import { toBool } from '../db/dialect';
import { languageTag } from '../accounts/routes';
import {
  draftPayload,
  draftSchema,
  draftTurns,
  fieldSchema,
  fieldTurns,
  readDraft,
  readField,
  type RoleRequest,
} from './role-draft';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import type { ChatTurn } from '../llm/language-model';
import { ProviderError } from '../domain/provider-error';
import { languageName } from './prompt';
import { requireModel } from './model-refusal';
import { textsFor } from '../i18n/texts';
import { fittingTurns, loadConversation } from './conversation';
import { canContinue, findOwnRoom } from './rooms';
import { refundChat, spendChat, type Movement } from '../accounts/benefits';
import { requireSpentChat } from './turn-service';
import { consume } from '../accounts/rate-limits';
import type { Logger } from '../logging/logger';

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

/** How long one field written again may be, in tokens. */
const FIELD_TOKENS: Record<RegenerableField, number> = {
  name: 40,
  tagline: 100,
  description: 600,
  personality: 200,
  scenario: 300,
  first_mes: 500,
  mes_example: 500,
  alternate_greetings: 700,
  tags: 100,
};

/**
 * Runs `work` for one chat: spent before the model runs (so parallel calls cannot overdraw),
 * given back when `work` fails, since the user then got nothing for it.
 */
async function forOneChat<T>(
  deps: Deps,
  userId: string,
  spend: Omit<Movement, 'kind'>,
  work: () => Promise<T>,
): Promise<T> {
  requireSpentChat(await deps.db.transaction().execute((trx) => spendChat(trx, userId, spend)));
  try {
    return await work();
  } catch (error) {
    await deps.db.transaction().execute((trx) =>
      refundChat(trx, userId, {
        reason: `${spend.reason}: refunded, nothing usable`,
        reference: spend.reference,
      }),
    );
    throw error;
  }
}

/**
 * Runs the model to completion and returns its text. A provider failure is a 5007 with a plain
 * sentence in the caller's language; its detail (a provider's body, host names) is logged.
 */
async function complete(
  deps: Deps,
  turns: ChatTurn[],
  options: { maxTokens: number; jsonSchema: Record<string, unknown> },
  request: { signal: AbortSignal; language: string; log: Logger },
) {
  let text = '';
  try {
    await deps.chat.model.generate(
      turns,
      { ...options, signal: request.signal, temperature: 0.9 },
      (piece) => (text += piece),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    request.log.warn(`generation failed: ${error.message}`);
    throw notice(textsFor(request.language)(`reply.${error.failure}`));
  }
  return text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Up to three usable suggestions from the model's JSON (at least `min`), or a 5007 saying none came.
function readSuggestions(text: string, kind: InspirationKind): string[] {
  const { min, maxChars } = INSPIRATIONS[kind];
  const parsed = parseJson(text) as { suggestions?: unknown } | undefined;
  const suggestions = Array.isArray(parsed?.suggestions)
    ? parsed.suggestions
        .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
        .map((item) => item.trim().slice(0, maxChars).trim())
    : [];
  if (suggestions.length < min)
    throw notice('No suggestions came to mind this time. Please try again.');
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

/** `/girl/chat/getInspiration` and `/mate/generateRole`: the model helping the user write. */
export function generationRoutes(deps: Deps) {
  const { db } = deps;
  const girl = new Hono<ApiEnv>();
  const mate = new Hono<ApiEnv>();

  const inspirationPayload = z.object({
    roomId: z.string().min(1).max(100),
    kind: z.enum(['reply', 'picture'] as const satisfies InspirationKind[]).optional(),
  });
  contract(girl, '/girl').post('/girl/chat/getInspiration', inspirationPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.generation, user.id);
    const { roomId, kind = 'reply' } = await read();
    const room = await findOwnRoom(db, user.id, roomId);
    // A closed mate's card is not run for anyone but its creator, not even as suggestions.
    if (!(await canContinue(db, user, room)))
      throw notice(textsFor(c.get('language'))('room.readOnly'));
    const { maxTokens } = INSPIRATIONS[kind];
    const turns = await fittingTurns(
      async (recent) => {
        const conversation = await loadConversation(db, room, user, '', recent);
        const ask = inspirationAsk(kind, {
          user: conversation.persona?.name ?? conversation.userName,
          mate: conversation.mate.name,
          looks: conversation.mate.description,
          language: languageName(c.get('language')),
        });
        return {
          ...conversation,
          language: c.get('language'),
          history: [...conversation.history, { role: 'user', content: ask }],
        };
      },
      deps.chat.model,
      maxTokens,
    );
    requireModel(deps.chat.model);
    const suggestions = await forOneChat(
      deps,
      user.id,
      { reason: 'inspiration', reference: { type: 'room', id: room.id } },
      async () =>
        readSuggestions(
          await complete(
            deps,
            turns,
            { maxTokens, jsonSchema: suggestionsSchema(INSPIRATIONS[kind].min) },
            { signal: c.req.raw.signal, language: c.get('language'), log: c.get('log') },
          ),
          kind,
        ),
    );
    return { suggestions };
  });

  const rolePayload = z.object({
    idea: z.string().trim().min(1, 'is required').max(1000),
    gender: z.enum(GENDERS).optional(),
    tags: z.array(z.string().min(1).max(40)).max(10).optional(),
    nsfw: z.boolean().optional(),
    language: languageTag.optional(),
    field: z.enum(REGENERABLE_FIELDS).optional(),
    draft: draftPayload.optional(),
  });
  contract(mate, '/mate').post('/mate/generateRole', rolePayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.generation, user.id);
    const input = await read();
    const { field, draft } = input;
    if (field && !draft) throw badInput(`draft: is required to write "${field}" again`);
    const knownTags = (await db.selectFrom('tags').select('key').orderBy('sort').execute()).map(
      (tag) => tag.key,
    );
    const tags = [...new Set(input.tags ?? [])];
    const unknown = tags.find((tag) => !knownTags.includes(tag));
    if (unknown) throw badInput(`tags: unknown tag "${unknown}"`);
    const nsfw = Boolean(input.nsfw || (field && draft?.nsfw));
    if (nsfw && !toBool(user.nfsw))
      throw new EnvelopeError(
        CODE.forbidden,
        'Turn on mature content in your settings to create a mate for adults.',
      );
    const request: RoleRequest = {
      idea: input.idea,
      gender: field && draft ? draft.gender : input.gender,
      tags,
      nsfw,
      language: input.language ?? c.get('language'),
      knownTags,
    };
    requireModel(deps.chat.model);
    return forOneChat(
      deps,
      user.id,
      // The draft is not a mate yet: nothing to name.
      { reason: 'character draft', reference: null },
      async () => {
        const text = await complete(
          deps,
          field && draft ? fieldTurns(request, field, draft) : draftTurns(request),
          field && draft
            ? { maxTokens: FIELD_TOKENS[field], jsonSchema: fieldSchema(field, knownTags) }
            : { maxTokens: 900, jsonSchema: draftSchema(request) },
          { signal: c.req.raw.signal, language: c.get('language'), log: c.get('log') },
        );
        const result =
          field && draft ? readField(text, request, field, draft) : readDraft(text, request);
        if (!result)
          throw notice(
            field
              ? `The model could not write the ${field} again this time. Please try again.`
              : 'The model could not draft a character from this idea. Please try again, or describe it differently.',
          );
        return result;
      },
    );
  });
  return { girl, mate };
}
