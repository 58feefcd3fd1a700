import type { MateDraft } from '@mates/api-client';

/** A mate of the seed catalog: the draft fields (no system prompt; safe unless said) and its creator's key. */
export type SeedMate = Omit<MateDraft, 'system_prompt' | 'nsfw'> & {
  creator: string;
  nsfw?: boolean;
};
