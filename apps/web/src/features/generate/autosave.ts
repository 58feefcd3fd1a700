import type { Mate, MateDraft } from '@mates/api-client';
import type { KeyValueStorage, StudioIdea, StudioPortrait } from '@mates/state-machines';
import { AUTOSAVED_MATES_KEY, autosavedMates, autosaveKey } from '../../lib/device-work';

/** What the studio keeps on this device between visits. */
export interface StudioSnapshot {
  idea: StudioIdea;
  draft: MateDraft | null;
  /** A picked choice only: an uploaded image is too large for `localStorage`. */
  portrait: StudioPortrait | null;
  /** The mate this work was saved as, once it was: saving again updates it. */
  mateId: string | null;
  /** The voice chosen here (`null` for the default); absent when none was chosen. */
  voice?: string | null;
  /** The seed the portrait choices were drawn with, so a picked one is shown again. */
  portraitSeed?: string;
}

/** The unsaved work kept for `mateId` (or a new mate), or `null`. */
export function readAutosave(storage: KeyValueStorage, mateId: string | null) {
  const text = storage.getItem(autosaveKey(mateId));
  if (!text) return null;
  try {
    return JSON.parse(text) as StudioSnapshot;
  } catch {
    // A copy this version cannot read is dropped rather than breaking the screen.
    return null;
  }
}

/** Keeps the work for `mateId`; an uploaded image is left out (it does not fit). */
export function writeAutosave(
  storage: KeyValueStorage,
  mateId: string | null,
  snapshot: StudioSnapshot,
): void {
  const portrait = snapshot.portrait && 'choiceId' in snapshot.portrait ? snapshot.portrait : null;
  storage.setItem(autosaveKey(mateId), JSON.stringify({ ...snapshot, portrait }));
  const kept = autosavedMates(storage);
  if (mateId && !kept.includes(mateId))
    storage.setItem(AUTOSAVED_MATES_KEY, JSON.stringify([...kept, mateId]));
}

/** Forgets the kept work once it is saved. */
export function clearAutosave(storage: KeyValueStorage, mateId: string | null): void {
  storage.setItem(autosaveKey(mateId), '');
  const kept = autosavedMates(storage);
  if (mateId && kept.includes(mateId))
    storage.setItem(AUTOSAVED_MATES_KEY, JSON.stringify(kept.filter((id) => id !== mateId)));
}

/** The editable fields of a saved mate. */
export function draftOf(mate: Mate): MateDraft {
  return {
    name: mate.name,
    tagline: mate.tagline,
    description: mate.description,
    personality: mate.personality,
    scenario: mate.scenario,
    first_mes: mate.first_mes,
    mes_example: mate.mes_example,
    creator_notes: mate.creator_notes,
    system_prompt: mate.system_prompt,
    alternate_greetings: mate.alternate_greetings,
    tags: mate.tags,
    gender: mate.gender,
    nsfw: mate.nsfw,
  };
}
