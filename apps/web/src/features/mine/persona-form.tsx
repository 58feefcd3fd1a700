import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Persona } from '@mates/api-client';
import { Button, Card, Flex, Heading, Text, TextArea, TextField } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { userKeys } from '../../lib/query-keys';
import { errorText } from '../../i18n/error-text';

/** Creates a persona (`persona` null) or edits one. */
export function PersonaForm({ persona, onDone }: { persona: Persona | null; onDone: () => void }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const queries = useQueryClient();
  const [name, setName] = useState(persona?.name ?? '');
  const [description, setDescription] = useState(persona?.description ?? '');
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: () =>
      client.user.saveOrUpdatePersona({
        ...(persona ? { uuid: persona.uuid } : {}),
        name: name.trim(),
        description: description.trim(),
      }),
    onSuccess: async () => {
      notices.trigger.added({ tone: 'positive', message: t('mine.saved') });
      await queries.invalidateQueries({ queryKey: userKeys.personas() });
      onDone();
    },
    // The server's refusal shows by the form; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Card
      as="form"
      aria-labelledby="persona-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setProblem(t('mine.nameMissing'));
        setProblem('');
        save.mutate();
      }}
    >
      <Heading as="h3" size={1} id="persona-form">
        {persona ? t('mine.editTitle', { name: persona.name }) : t('mine.createTitle')}
      </Heading>
      <TextField
        label={t('mine.name')}
        value={name}
        // The form opened on a press of New persona or Edit: typing starts here.
        autoFocus
        // As long as the server keeps (1–50 characters).
        maxLength={50}
        onChange={(event) => setName(event.target.value)}
        error={problem || undefined}
      />
      <TextArea
        label={t('mine.description')}
        placeholder={t('mine.descriptionHint')}
        value={description}
        maxLength={2000}
        onChange={(event) => setDescription(event.target.value)}
      />
      {save.isError && <Text tone="danger">{errorText(save.error, t)}</Text>}
      <Flex gap={2} justify="end">
        <Button variant="ghost" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" aria-busy={save.isPending}>
          {t('common.save')}
        </Button>
      </Flex>
    </Card>
  );
}
