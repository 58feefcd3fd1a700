import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Persona } from '@mates/api-client';
import { Avatar, Button, Card, EmptyState, Flex, Heading, Stack, Tag, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { personasQuery } from '../../lib/queries';
import { userKeys } from '../../lib/query-keys';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError } from '../../components/states';
import { MyMates } from './my-mates';
import { PersonaForm } from './persona-form';

/** `/mine`: the personal area — your mates and card import, then personas to create, edit, make default and delete. */
export function MinePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('mine.title')} back={{ to: '/profile', label: t('nav.profile') }} balances>
      <SignInGate>
        <MyMates />
        <Personas />
      </SignInGate>
    </Page>
  );
}

function Personas() {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const personas = useQuery(personasQuery(client));
  const [editing, setEditing] = useState<Persona | 'new' | null>(null);
  const [doomed, setDoomed] = useState<Persona | null>(null);
  const create = useRef<HTMLButtonElement>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: userKeys.personas() });
  const makeDefault = useMutation({
    mutationFn: (uuid: string) => client.user.setDefaultPersona({ uuid }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (uuid: string) => client.user.deleteDefaultPersona({ uuid }),
    onSuccess: () => setDoomed(null),
    onSettled: refresh,
  });
  if (personas.isPending) return <Loading />;
  if (personas.isError) return <LoadError query={personas} />;
  return (
    <Stack gap={4} as="section" aria-labelledby="mine-personas">
      <Flex justify="between" align="center" wrap gap={2}>
        <Heading as="h2" size={2} id="mine-personas">
          {t('mine.personas')}
        </Heading>
        <Button ref={create} onClick={() => setEditing('new')}>
          {t('mine.create')}
        </Button>
      </Flex>
      <Text tone="muted">{t('mine.personasText')}</Text>
      {editing && (
        <PersonaForm
          persona={editing === 'new' ? null : editing}
          onDone={() => {
            // A new persona's form closed: the focus goes back to the button that opened it.
            if (editing === 'new') requestAnimationFrame(() => create.current?.focus());
            setEditing(null);
          }}
        />
      )}
      {personas.data.length === 0 ? (
        // While the first one is being written, "no personas yet" has nothing to say.
        editing === 'new' ? null : (
          <EmptyState title={t('mine.empty')} description={t('mine.emptyText')} />
        )
      ) : (
        <Stack as="ul" gap={3} aria-label={t('mine.personas')}>
          {personas.data.map((persona) => (
            <Card as="li" key={persona.uuid} aria-label={persona.name}>
              <Flex gap={3} align="center">
                <Avatar src={persona.avatar} name={persona.name} decorative />
                <Stack gap={1}>
                  <Flex gap={2} align="center">
                    <Heading as="h3" size={1}>
                      {persona.name}
                    </Heading>
                    {persona.isDefault && <Tag>{t('mine.default')}</Tag>}
                  </Flex>
                  <Text tone="muted" size={2}>
                    {persona.description}
                  </Text>
                </Stack>
              </Flex>
              <Flex gap={2} justify="end" wrap>
                {!persona.isDefault && (
                  <Button
                    size="small"
                    variant="soft"
                    aria-label={t('mine.setDefault', { name: persona.name })}
                    onClick={() => makeDefault.mutate(persona.uuid)}
                  >
                    {t('mine.setDefaultShort')}
                  </Button>
                )}
                <Button
                  size="small"
                  variant="ghost"
                  aria-label={t('mine.edit', { name: persona.name })}
                  onClick={() => setEditing(persona)}
                >
                  {t('common.edit')}
                </Button>
                <Button
                  size="small"
                  variant="ghost"
                  aria-label={t('mine.delete', { name: persona.name })}
                  onClick={() => setDoomed(persona)}
                >
                  {t('common.delete')}
                </Button>
              </Flex>
            </Card>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={t('mine.confirmDelete', { name: doomed?.name ?? '' })}
        text={t('mine.confirmDeleteText')}
        confirm={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => doomed && remove.mutate(doomed.uuid)}
        onCancel={() => setDoomed(null)}
      />
    </Stack>
  );
}
