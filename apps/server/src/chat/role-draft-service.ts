import type { Gender, MateDraft, RegenerableField } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { toBool } from '../db/dialect';
import { forbidden, invalid, refused } from '../domain/errors';
import { requireModel } from './model-refusal';
import {
  draftSchema,
  draftTurns,
  fieldSchema,
  fieldTurns,
  readDraft,
  readField,
  type RoleRequest,
} from './role-draft';
import { knownTagKeys } from './role-draft-repository';
import {
  completeText,
  forOneChat,
  type GenerationDeps,
  type GenerationRequest,
} from './generation-service';

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

/** What a creator asks for: a whole draft from an idea, or one `field` of `draft` again. */
export interface RoleAsk extends GenerationRequest {
  user: UserTable;
  idea: string;
  gender?: Gender;
  /** Known tag keys the mate must carry. */
  tags?: string[];
  nsfw?: boolean;
  /** The language to write in, a tag (the caller's when absent). */
  language?: string;
  field?: RegenerableField;
  /** The draft as the editor holds it: required with `field`. */
  draft?: MateDraft;
  /** The caller's language, a tag. */
  callerLanguage: string;
}

/** What the model is asked for, checked: known tags, mature content only for those who opted in. */
async function roleRequest(deps: GenerationDeps, ask: RoleAsk): Promise<RoleRequest> {
  const { field, draft } = ask;
  if (field && !draft) throw invalid('notices.chat.draftRequired', { field });
  const knownTags = await knownTagKeys(deps.db);
  const tags = [...new Set(ask.tags ?? [])];
  const unknown = tags.find((tag) => !knownTags.includes(tag));
  if (unknown) throw invalid('notices.mates.unknownTag', { tag: unknown });
  const nsfw = Boolean(ask.nsfw || (field && draft?.nsfw));
  if (nsfw && !toBool(ask.user.nfsw)) throw forbidden('notices.chat.matureCreate');
  return {
    idea: ask.idea,
    gender: field && draft ? draft.gender : ask.gender,
    tags,
    nsfw,
    language: ask.language ?? ask.callerLanguage,
    knownTags,
  };
}

/**
 * A character drafted by the model from the creator's idea, or one field of their draft
 * written again to fit the rest, for one chat (given back when nothing usable came).
 */
export async function generateRole(deps: GenerationDeps, ask: RoleAsk): Promise<MateDraft> {
  const request = await roleRequest(deps, ask);
  requireModel(deps.chat.model);
  const { field, draft } = ask;
  // The draft is not a mate yet: nothing to name.
  const spend = {
    reason: { key: 'ledger.reasons.characterDraft' },
    refund: { key: 'ledger.reasons.characterDraftNothingUsable' },
    reference: null,
  } as const;
  return forOneChat(deps.db, ask.user.id, spend, async () => {
    if (field && draft) {
      const options = {
        maxTokens: FIELD_TOKENS[field],
        jsonSchema: fieldSchema(field, request.knownTags),
      };
      const text = await completeText(deps, fieldTurns(request, field, draft), options, ask);
      const result = readField(text, request, field, draft);
      if (!result) throw refused('notices.chat.fieldFailed', { field });
      return result;
    }
    const options = { maxTokens: 900, jsonSchema: draftSchema(request) };
    const result = readDraft(await completeText(deps, draftTurns(request), options, ask), request);
    if (!result) throw refused('notices.chat.draftFailed');
    return result;
  });
}
