import { useEffect, useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { GENDERS, ROLE_DRAFT_COST_CHATS, type Gender } from '@mates/api-client';
import { IDEA_MAX_LENGTH, isIdeaValid, type StudioContext } from '@mates/state-machines';
import { Button, Card, Chip, Flex, Link, Select, Stack, Switch, Text, TextArea } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { useTagGroups } from '../../hooks/use-tag-labels';
import type { StudioActor } from './studio';
import { useChatsLeft } from './use-chats-left';
import { messageText } from '../../i18n/error-text';

/** The idea and its options, the cost, and Generate (or "Start from scratch"). */
export function IdeaForm({ actor }: { actor: StudioActor }) {
  const { t, i18n } = useTranslation();
  const { store } = useServices();
  const costId = useId();
  const idea = useSelector(actor, (snapshot) => snapshot.context.idea);
  const generating = useSelector(actor, (snapshot) => snapshot.matches('generating'));
  const failure = useSelector(actor, (snapshot) => snapshot.context.error);
  const matureAllowed = useStoreSelector(store, (state) => state.context.nfsw);
  const chats = useChatsLeft();
  const { groups } = useTagGroups();
  const [tried, setTried] = useState(false);
  const change = (patch: Partial<typeof idea>) => actor.send({ type: 'IDEA.CHANGE', idea: patch });
  const tooLong = idea.idea.length > IDEA_MAX_LENGTH;
  const problem = tooLong
    ? t('generate.ideaTooLong', { max: IDEA_MAX_LENGTH.toLocaleString(i18n.language) })
    : tried && idea.idea.trim() === ''
      ? t('generate.ideaMissing')
      : undefined;
  return (
    <Card
      as="form"
      aria-labelledby="studio-idea"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (isIdeaValid(idea.idea)) actor.send({ type: 'GENERATE' });
      }}
    >
      <Text id="studio-idea" tone="muted">
        {t('generate.intro')}
      </Text>
      <Stack gap={1}>
        <TextArea
          label={t('generate.idea')}
          placeholder={t('generate.ideaHint')}
          value={idea.idea}
          disabled={generating}
          error={problem}
          onChange={(event) => change({ idea: event.target.value })}
        />
        <Text size={1} tone={tooLong ? 'danger' : 'muted'}>
          {t('generate.ideaCount', {
            length: idea.idea.length.toLocaleString(i18n.language),
            max: IDEA_MAX_LENGTH.toLocaleString(i18n.language),
          })}
        </Text>
      </Stack>
      <Flex gap={3} wrap>
        <Select
          label={t('generate.gender')}
          value={idea.gender ?? 'any'}
          onValueChange={(value) => change({ gender: value === 'any' ? null : (value as Gender) })}
          options={['any', ...GENDERS].map((value) => ({
            value,
            label: t(`generate.genders.${value as 'any' | Gender}`),
          }))}
        />
        <Select
          label={t('generate.language')}
          value={idea.language}
          onValueChange={(language) => change({ language })}
          options={(['en', 'es', 'fr'] as const).map((value) => ({
            value,
            label: t(`generate.languages.${value}`),
          }))}
        />
      </Flex>
      {(groups.data ?? []).map((group) => (
        <Stack gap={1} key={group.key}>
          <Text size={2} id={`studio-tags-${group.key}`}>
            {t('generate.tags')} · {group.label}
          </Text>
          <Flex gap={1} wrap role="group" aria-labelledby={`studio-tags-${group.key}`}>
            {group.tags.map((tag) => (
              <Chip
                key={tag.key}
                selected={idea.tags.includes(tag.key)}
                onSelectedChange={(on) =>
                  change({
                    tags: on ? [...idea.tags, tag.key] : idea.tags.filter((key) => key !== tag.key),
                  })
                }
              >
                {tag.label}
              </Chip>
            ))}
          </Flex>
        </Stack>
      ))}
      {matureAllowed && (
        <Switch
          label={t('generate.mature')}
          checked={idea.nsfw}
          onCheckedChange={(nsfw) => change({ nsfw })}
        />
      )}
      {failure?.failure === 'generate' && !generating && (
        <Text role="alert" tone="danger">
          {t('format.label', { label: t('generate.generateFailed') })} {failureText(failure, t)}
        </Text>
      )}
      <Text id={costId}>
        {chats > 0 ? (
          t('generate.cost', { cost: ROLE_DRAFT_COST_CHATS, count: chats })
        ) : (
          <>
            {t('generate.costNone', { cost: ROLE_DRAFT_COST_CHATS })}{' '}
            <Link href={href('/subscription')}>{t('generate.getChats')}</Link>
          </>
        )}
      </Text>
      {generating ? (
        <Progress onCancel={() => actor.send({ type: 'CANCEL' })} />
      ) : (
        <Flex gap={2} wrap>
          <Button type="submit" disabled={chats <= 0} aria-describedby={costId}>
            {t('generate.generate')}
          </Button>
          <Button variant="ghost" onClick={() => actor.send({ type: 'START_BLANK' })}>
            {t('generate.startBlank')}
          </Button>
        </Flex>
      )}
    </Card>
  );
}

/**
 * Why a studio call failed, in the person's language: a call that never reached the server
 * says the connection is gone (its message is the client's, naming the request in English).
 */
export function failureText(
  failure: NonNullable<StudioContext['error']>,
  t: TFunction<'translation'>,
): string {
  return failure.network ? t('errors.network') : messageText(failure.message, t);
}

/** A generation under way: its seconds, said politely, and a way to stop it. */
export function Progress({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Flex gap={3} align="center" wrap>
      <Text role="status" aria-live="polite">
        {t('generate.generating', { seconds })}
      </Text>
      <Button variant="soft" onClick={onCancel}>
        {t('generate.cancel')}
      </Button>
    </Flex>
  );
}
