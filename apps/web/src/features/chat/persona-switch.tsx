import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Select } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { personasQuery } from '../../lib/queries';
import { InlineLoadError } from '../../components/states';
import { refreshRoom } from './api/room-cache';
import { useSayFailure } from './use-say-failure';

// Not empty: a select shows an empty value as no choice at all. No persona id looks like it.
const YOURSELF = '@yourself';

/**
 * Who the person plays in this chat (one of their personas, or themselves), switched from the
 * chat: the next reply is to them. Nothing to choose without personas; when they cannot be
 * read, it says so, with a retry; a switch that fails is said in a notice.
 */
export function PersonaSwitch({ roomId, personaId }: { roomId: string; personaId: string | null }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const personas = useQuery(personasQuery(client));
  const sayFailure = useSayFailure();
  const change = useMutation({
    mutationFn: (value: string) =>
      client.room.setPersona({ roomId, personaId: value === YOURSELF ? null : value }),
    onSuccess: () => refreshRoom(queries, roomId),
    // A switch that did not happen is said; the select still shows who is played.
    onError: sayFailure,
  });
  if (personas.isError) return <InlineLoadError query={personas} title={t('chat.personasError')} />;
  if (!personas.data?.length) return null;
  return (
    <Select
      label={t('chat.playAs')}
      value={personaId ?? YOURSELF}
      onValueChange={(value) => change.mutate(value)}
      options={[
        { value: YOURSELF, label: t('chat.yourself') },
        ...personas.data.map((persona) => ({ value: persona.uuid, label: persona.name })),
      ]}
    />
  );
}
