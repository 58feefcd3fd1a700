import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import type { Mate, MateDraft } from '@mates/api-client';
import { studioMachine, type StudioContext, type StudioIdea } from '@mates/state-machines';
import { Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { mateKeys, userKeys } from '../../lib/query-keys';
import { supportedLanguage } from '../../i18n/i18n';
import { clearAutosave, readAutosave, writeAutosave, type StudioSnapshot } from './autosave';
import { IdeaForm } from './idea-form';
import { DraftForm } from './draft-form';
import { SavedPanel } from './saved-panel';
import { LeaveGuard } from './leave-guard';

/** The actor the studio's parts talk to. */
export type StudioActor = ReturnType<typeof useActorRef<typeof studioMachine>>;

const snapshotOf = (context: StudioContext, portraitSeed: string | null): StudioSnapshot => ({
  idea: context.idea,
  draft: context.draft,
  portrait: context.portrait,
  mateId: context.mateId,
  ...(context.voice !== undefined ? { voice: context.voice } : {}),
  ...(portraitSeed !== null ? { portraitSeed } : {}),
});

/**
 * What counts as a change worth keeping: the idea with every option (a gender chosen alone is
 * work too), the draft and the portrait.
 */
const workOf = (idea: StudioIdea | null, draft: MateDraft | null, portrait: unknown) =>
  JSON.stringify([idea, draft, portrait]);

/**
 * The studio for a new mate (`mateId` null) or one of the caller's (`mate`, its fields as
 * `saved`). The work is kept on this device as it changes and restored on return.
 */
export function Studio({
  mateId,
  mate,
  saved = null,
}: {
  mateId: string | null;
  mate?: Mate;
  saved?: MateDraft | null;
}) {
  const { t, i18n } = useTranslation();
  const { client, storage, platform } = useServices();
  const queries = useQueryClient();
  const [restored] = useState(() => readAutosave(storage, mateId));
  const [fresh] = useState<StudioIdea>(() => ({
    idea: '',
    gender: null,
    tags: [],
    nsfw: false,
    language: supportedLanguage(i18n.language),
  }));
  const [baseline] = useState(() => workOf(fresh, saved, null));
  // The portraits drawn for this work: restored with it, so the picked one is among them again.
  const [portraitSeed, setPortraitSeed] = useState(restored?.portraitSeed ?? null);
  // A voice kept with the work wins over the mate's; a new mate has none until one is chosen.
  const voice = restored?.voice !== undefined ? restored.voice : mate?.voice;
  const actor = useActorRef(studioMachine, {
    input: {
      client,
      mateId: restored?.mateId ?? mateId,
      idea: restored?.idea ?? fresh,
      draft: restored?.draft ?? saved,
      portrait: restored?.portrait ?? null,
      ...(voice !== undefined ? { voice } : {}),
    },
  });
  const state = useSelector(actor, (snapshot) => snapshot);
  const { context } = state;
  // Unchanged means as last saved here, or else as the screen opened. A voice counts once one
  // is chosen (`undefined` keeps the saved one), against the saved mate's, or the default's.
  const savedVoice = (context.saved ?? mate)?.voice ?? null;
  const voiceChanged = context.voice !== undefined && context.voice !== savedVoice;
  const dirty =
    !state.matches('saved') &&
    (voiceChanged ||
      (context.savedDraft
        ? workOf(null, context.draft, context.portrait) !== workOf(null, context.savedDraft, null)
        : workOf(context.idea, context.draft, context.portrait) !== baseline));

  // Every change is kept on this device, so a reload or a closed tab loses nothing; work taken
  // back to where it started is forgotten, or an older copy would come back in its place.
  useEffect(() => {
    if (state.matches('saved')) return;
    try {
      if (dirty) writeAutosave(storage, mateId, snapshotOf(context, portraitSeed));
      else clearAutosave(storage, mateId);
    } catch (error) {
      platform.logError('The studio could not keep a copy of the work', error);
    }
  }, [context, dirty, mateId, platform, portraitSeed, state, storage]);

  // Once saved, lists showing the mate are stale; and unless the creator changed something while
  // it saved (kept, and still theirs to save), the kept copy is done with.
  const lastSaved = context.saved;
  useEffect(() => {
    if (!lastSaved) return;
    queries.setQueryData(mateKeys.detail(lastSaved.mateId), lastSaved);
    void queries.invalidateQueries({ queryKey: mateKeys.mine() });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per save
  }, [lastSaved]);
  const savedMate = state.matches('saved') ? context.saved : null;
  useEffect(() => {
    if (savedMate) clearAutosave(storage, mateId);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per save
  }, [savedMate]);

  // Each generation spends chats: once a call ends, the count shown must be the server's.
  const busy = state.hasTag('busy');
  useEffect(() => {
    if (!busy) void queries.invalidateQueries({ queryKey: userKeys.benefits() });
  }, [busy, queries]);

  return (
    <Stack gap={5}>
      <LeaveGuard when={dirty} />
      {restored && dirty && (
        <Text role="status" tone="muted">
          {t('generate.restored')}
        </Text>
      )}
      {savedMate ? (
        <SavedPanel mate={savedMate} onEdit={() => actor.send({ type: 'EDIT' })} />
      ) : state.matches('composing') || (state.matches('generating') && !context.draft) ? (
        <IdeaForm actor={actor} />
      ) : (
        <DraftForm
          actor={actor}
          editing={mate ?? null}
          unsaved={context.saved !== null && dirty}
          portraitSeed={portraitSeed}
          onPortraitSeed={setPortraitSeed}
        />
      )}
    </Stack>
  );
}
