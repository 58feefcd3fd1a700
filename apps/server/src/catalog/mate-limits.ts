/**
 * What a mate's fields may hold, as `/mate/saveMate` checks them and imported cards are fitted
 * to. The web form checks the same numbers before sending: they are copied in
 * `packages/state-machines/src/mate-draft-rules.ts` (`MATE_TEXT_LIMITS`,
 * `ALTERNATE_GREETINGS_LIMIT`, `MATE_TAGS_LIMIT`) — change both together.
 */
export const MATE_TEXT_LIMITS = {
  name: 100,
  tagline: 200,
  description: 8000,
  personality: 2000,
  scenario: 4000,
  first_mes: 8000,
  mes_example: 8000,
  creator_notes: 2000,
  system_prompt: 8000,
} as const;

/** How many alternate greetings a mate may have, and how long each may be. */
export const ALTERNATE_GREETINGS_LIMIT = { count: 10, length: 8000 } as const;

/** How many tags a mate may carry. */
export const MATE_TAGS_LIMIT = 10;
