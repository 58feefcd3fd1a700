import { z } from 'zod';
import {
  ALTERNATE_GREETINGS_LIMIT,
  GENDERS,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  type Gender,
  type MateDraft,
  type RegenerableField,
} from '@mates/api-client';
import type { ChatTurn } from '../llm/language-model';
import { languageName } from './prompt';
import { parseJson } from './generation-service';

/** The string fields the model writes for a whole draft. */
const TEXT_FIELDS = [
  'name',
  'tagline',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
] as const;

/** How many tags and alternate greetings the model may write. */
const MAX_MODEL_TAGS = 5;
const MAX_MODEL_GREETINGS = 2;

/** What each field is, told to the model when it writes one field again. */
const FIELD_GUIDE: Record<RegenerableField, string> = {
  name: "the character's name: a first name, or first and last name",
  tagline: 'a one-sentence hook shown under the name in listings, under 20 words',
  description: 'who {{char}} is: looks, background and situation, in a few paragraphs',
  personality: "{{char}}'s personality in a short list of traits",
  scenario: 'the situation {{user}} and {{char}} meet in, in one or two sentences',
  first_mes:
    "{{char}}'s opening message, in character, with actions in *asterisks*, that starts every chat",
  mes_example: 'a short example exchange between {{user}} and {{char}}, starting with <START>',
  alternate_greetings:
    'one or two other opening messages, in character, each starting the chat differently',
  tags: 'tags that fit the character, chosen from the list of known tags',
};

/** The largest sizes a drafted field may have (as `saveMate` takes them). */
export const draftShape = z.object({
  name: z.string().trim().min(1).max(100),
  tagline: z.string().trim().max(200),
  description: z.string().trim().max(4000),
  personality: z.string().trim().max(1000),
  scenario: z.string().trim().max(2000),
  first_mes: z.string().trim().min(1).max(4000),
  mes_example: z.string().trim().max(4000),
  creator_notes: z.string().trim().max(1000),
  alternate_greetings: z.array(z.string().trim().max(4000)).max(5),
  tags: z.array(z.string()).max(10),
  gender: z.enum(GENDERS),
});

/** What one field written again must be to be usable: never empty. */
const fieldShapes: Record<RegenerableField, z.ZodType> = {
  name: z.string().trim().min(1).max(100),
  tagline: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(4000),
  personality: z.string().trim().min(1).max(1000),
  scenario: z.string().trim().min(1).max(2000),
  first_mes: z.string().trim().min(1).max(4000),
  mes_example: z.string().trim().min(1).max(4000),
  alternate_greetings: z
    .array(z.string().trim().max(4000))
    .transform((greetings) => greetings.filter(Boolean).slice(0, MAX_MODEL_GREETINGS))
    .pipe(z.array(z.string()).min(1)),
  tags: z.array(z.string()).max(10),
};

/** The draft a creator sends back with `field`: as the editor holds it, maybe half written. */
export const draftPayload = z.object({
  ...(Object.fromEntries(
    Object.entries(MATE_TEXT_LIMITS).map(([field, most]) => [field, z.string().max(most)]),
  ) as { [K in keyof typeof MATE_TEXT_LIMITS]: z.ZodString }),
  alternate_greetings: z
    .array(z.string().max(ALTERNATE_GREETINGS_LIMIT.length))
    .max(ALTERNATE_GREETINGS_LIMIT.count),
  tags: z.array(z.string().min(1).max(40)).max(MATE_TAGS_LIMIT),
  gender: z.enum(GENDERS),
  nsfw: z.boolean(),
});

/** What the model is asked to write, and for whom. */
export interface RoleRequest {
  idea: string;
  /** The gender asked for, or `undefined` to let the model choose. */
  gender: Gender | undefined;
  /** Known tag keys the mate must carry. */
  tags: string[];
  /** Whether mature content is allowed. */
  nsfw: boolean;
  /** A language tag, e.g. `es`. */
  language: string;
  /** Every known tag key, in display order. */
  knownTags: string[];
}

/** The JSON schema of a whole draft; the gender is fixed when one was asked for. */
export function draftSchema(request: RoleRequest): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, { type: 'string' }])),
      alternate_greetings: {
        type: 'array',
        items: { type: 'string' },
        maxItems: MAX_MODEL_GREETINGS,
      },
      tags: tagsSchema(request.knownTags),
      gender: { enum: request.gender ? [request.gender] : GENDERS },
    },
    required: [...TEXT_FIELDS, 'alternate_greetings', 'tags', 'gender'],
    additionalProperties: false,
  };
}

function tagsSchema(knownTags: string[]) {
  return { type: 'array', items: { enum: knownTags }, maxItems: MAX_MODEL_TAGS };
}

/** The JSON schema of one field alone: `{ "<field>": … }`. */
export function fieldSchema(field: RegenerableField, knownTags: string[]): Record<string, unknown> {
  const property =
    field === 'tags'
      ? { ...tagsSchema(knownTags), minItems: 1 }
      : field === 'alternate_greetings'
        ? { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_MODEL_GREETINGS }
        : { type: 'string' };
  return {
    type: 'object',
    properties: { [field]: property },
    required: [field],
    additionalProperties: false,
  };
}

/** The rules every role prompt states: language, macros, tags, gender and mature content. */
function systemTurn(request: RoleRequest): ChatTurn {
  const rules = [
    'You write character cards for a roleplay chat app.',
    `Write every field in ${languageName(request.language)}.`,
    'Use {{char}} for the character and {{user}} for the person chatting.',
    "first_mes is the character's opening message, in character, with actions in *asterisks*. mes_example is a short example exchange starting with <START>.",
    `Pick tags only from: ${request.knownTags.join(', ')}.`,
    request.tags.length
      ? `The character carries these tags: ${request.tags.join(', ')}; you may add other fitting ones.`
      : '',
    request.gender ? `The character's gender is ${request.gender}.` : '',
    request.nsfw
      ? 'Mature (not safe for work) themes are allowed; every character is an adult.'
      : 'Keep it safe for work: no sexual content.',
    'Answer with JSON only.',
  ];
  return { role: 'system', content: rules.filter(Boolean).join(' ') };
}

/** The turns asking for a whole draft from an idea. */
export function draftTurns(request: RoleRequest): ChatTurn[] {
  return [
    systemTurn(request),
    { role: 'user', content: `Create an original character from this idea: ${request.idea}` },
  ];
}

/** The turns asking for one field of `draft` again, fitting the rest of it. */
export function fieldTurns(
  request: RoleRequest,
  field: RegenerableField,
  draft: MateDraft,
): ChatTurn[] {
  const rest = Object.fromEntries(
    Object.entries(draft).filter(([key]) => key !== field && key !== 'nsfw'),
  );
  return [
    systemTurn(request),
    {
      role: 'user',
      content: [
        `The character's idea: ${request.idea}`,
        `The character card so far, as JSON: ${JSON.stringify(rest)}`,
        `Its current ${field}: ${JSON.stringify(draft[field])}`,
        `Write only a new ${field} (${FIELD_GUIDE[field]}), different from the current one and fitting the rest of the card. Answer with JSON: {"${field}": …}.`,
      ].join('\n\n'),
    },
  ];
}

/** Known tags first asked for, then the model's, lowercased, without repeats, at most 10. */
function mergeTags(asked: string[], written: string[], knownTags: string[]): string[] {
  const known = new Set(knownTags);
  const fromModel = written.map((tag) => tag.trim().toLowerCase()).filter((tag) => known.has(tag));
  return [...new Set([...asked, ...fromModel])].slice(0, 10);
}

/** A whole draft from the model's answer, or `null` when it is not usable. */
export function readDraft(text: string, request: RoleRequest): MateDraft | null {
  const parsed = draftShape.safeParse(parseJson(text));
  if (!parsed.success) return null;
  return {
    ...parsed.data,
    gender: request.gender ?? parsed.data.gender,
    alternate_greetings: parsed.data.alternate_greetings.filter(Boolean),
    system_prompt: '',
    tags: mergeTags(request.tags, parsed.data.tags, request.knownTags),
    nsfw: request.nsfw,
  };
}

/** `draft` with `field` replaced by the model's answer, or `null` when it is not usable. */
export function readField(
  text: string,
  request: RoleRequest,
  field: RegenerableField,
  draft: MateDraft,
): MateDraft | null {
  const answer = parseJson(text) as Record<string, unknown> | undefined;
  const parsed = fieldShapes[field].safeParse(answer?.[field]);
  if (!parsed.success) return null;
  if (field === 'tags') {
    const tags = mergeTags(request.tags, parsed.data as string[], request.knownTags);
    return tags.length ? { ...draft, tags } : null;
  }
  return { ...draft, [field]: parsed.data };
}
