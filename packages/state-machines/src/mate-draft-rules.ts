import {
  ALTERNATE_GREETINGS_LIMIT,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  type MateDraft,
  type MateTextField,
  type MateVisibility,
} from '@mates/api-client';

/** The longest idea `POST /mate/generateRole` takes, in characters. */
export const IDEA_MAX_LENGTH = 1000;

// The limits have one home, the contract (`@mates/api-client`), which the server checks by too:
// re-exported here for the apps that read them from this package.
export { ALTERNATE_GREETINGS_LIMIT, MATE_TAGS_LIMIT, MATE_TEXT_LIMITS };
export type { MateTextField };

/** What is wrong with one field: missing, too long, or (lists) too many entries. */
export type MateDraftProblem = 'required' | 'tooLong' | 'tooMany';

/**
 * Every problem of a draft, by field; alternate greetings are keyed `alternate_greetings.<index>`
 * for one greeting that is too long.
 */
export type MateDraftProblems = Partial<Record<string, MateDraftProblem>>;

/** An empty draft: what "start from scratch" fills in. */
export function emptyMateDraft(): MateDraft {
  return {
    name: '',
    tagline: '',
    description: '',
    personality: '',
    scenario: '',
    first_mes: '',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
    tags: [],
    gender: 'female',
    nsfw: false,
  };
}

/**
 * The draft's problems before saving it as `visibility`, matching `POST /mate/saveMate`: a name
 * always (≤100); a greeting for `private` and `public` but not for a `draft`; every text within
 * its limit; at most 10 alternate greetings and 10 tags. An empty object means it can be saved.
 */
export function checkMateDraft(draft: MateDraft, visibility: MateVisibility): MateDraftProblems {
  const problems: MateDraftProblems = {};
  for (const [field, max] of Object.entries(MATE_TEXT_LIMITS) as [MateTextField, number][]) {
    if (draft[field].trim().length > max) problems[field] = 'tooLong';
  }
  if (draft.name.trim() === '') problems.name = 'required';
  if (visibility !== 'draft' && draft.first_mes.trim() === '') problems.first_mes = 'required';
  if (draft.alternate_greetings.length > ALTERNATE_GREETINGS_LIMIT.count)
    problems.alternate_greetings = 'tooMany';
  draft.alternate_greetings.forEach((greeting, index) => {
    if (greeting.length > ALTERNATE_GREETINGS_LIMIT.length)
      problems[`alternate_greetings.${index}`] = 'tooLong';
  });
  if (draft.tags.length > MATE_TAGS_LIMIT) problems.tags = 'tooMany';
  return problems;
}

/** Whether an idea can be sent to `POST /mate/generateRole` (1–1,000 characters, not blank). */
export function isIdeaValid(idea: string): boolean {
  return idea.trim() !== '' && idea.length <= IDEA_MAX_LENGTH;
}
