import type { Gender } from '@mates/api-client';

/** A mate of the seed catalog: Character Card V2 fields plus who made it. */
export interface SeedMate {
  creator: string;
  name: string;
  gender: Gender;
  nsfw?: boolean;
  tags: string[];
  tagline: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  alternate_greetings: string[];
}
