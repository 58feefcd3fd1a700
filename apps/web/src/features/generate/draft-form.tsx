import { useEffect, useId, useState, type ReactNode } from 'react';
import type { TFunction as TFunction18 } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import {
  GENDERS,
  ROLE_DRAFT_COST_CHATS,
  type Gender,
  type Mate,
  type MateDraft,
  type MateVisibility,
  type RegenerableField,
} from '@mates/api-client';
import {
  ALTERNATE_GREETINGS_LIMIT,
  checkMateDraft,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  type MateDraftProblems,
  type MateTextField,
} from '@mates/state-machines';
import {
  Button,
  Card,
  Chip,
  Flex,
  Heading,
  Select,
  Stack,
  Switch,
  Text,
  TextArea,
  TextField,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { useTagGroups } from '../../hooks/use-tag-labels';
import { Progress } from './idea-form';
import { PortraitPicker } from './portrait-picker';
import { GreetingPreview } from './greeting-preview';
import { useVoiceCatalog } from '../../components/voice/voice-player';
import { VoiceField } from '../../components/voice/voice-field';
import { fillMacros, useReaderName } from '../../components/card-text';
import type { StudioActor } from './studio';
import { useChatsLeft } from './use-chats-left';
import { failureText } from './idea-form';

// i18next's own type: taking useTranslation's return type instead runs past TypeScript's depth limit.
type TFunction = TFunction18<'translation'>;

/** The words of one problem of the form rules. */
function problemText(
  t: TFunction,
  field: string,
  problems: MateDraftProblems,
  language: string,
): string | undefined {
  const problem = problems[field];
  if (!problem) return undefined;
  if (problem === 'required')
    return field === 'name'
      ? t('generate.problems.nameRequired')
      : t('generate.problems.greetingRequired');
  if (problem === 'tooMany')
    return field === 'tags'
      ? t('generate.problems.tooManyTags', { max: MATE_TAGS_LIMIT })
      : t('generate.problems.tooManyGreetings', { max: ALTERNATE_GREETINGS_LIMIT.count });
  const max =
    MATE_TEXT_LIMITS[field as MateTextField] ?? (ALTERNATE_GREETINGS_LIMIT.length as number);
  return t('generate.problems.tooLong', { max: max.toLocaleString(language) });
}

const FAILURE_TEXT = {
  generate: 'generate.generateFailed',
  regenerate: 'generate.regenerateFailed',
  save: 'generate.saveFailed',
  portrait: 'generate.portraitFailed',
} as const;

const LONG_FIELDS = ['description', 'personality', 'scenario', 'first_mes', 'mes_example'] as const;

/**
 * The draft as an editable form: every field, each with "Write again"; the portrait; the
 * greeting's preview; and the saves. `editing` is the caller's mate when this edits one;
 * `portraitSeed` is what the portrait choices are drawn with, kept with the work; `unsaved`
 * says that the work changed since it was last saved here (perhaps while it saved).
 */
export function DraftForm({
  actor,
  editing,
  unsaved,
  portraitSeed,
  onPortraitSeed,
}: {
  actor: StudioActor;
  editing: Mate | null;
  unsaved: boolean;
  portraitSeed: string | null;
  onPortraitSeed: (seed: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const { store } = useServices();
  const context = useSelector(actor, (snapshot) => snapshot.context);
  const generating = useSelector(actor, (snapshot) => snapshot.matches('generating'));
  const saving = useSelector(
    actor,
    (snapshot) => snapshot.matches('saving') || snapshot.matches('settingPortrait'),
  );
  const busy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const matureAllowed = useStoreSelector(store, (state) => state.context.nfsw);
  const chats = useChatsLeft();
  const { groups } = useTagGroups();
  const voiceCatalog = useVoiceCatalog();
  const reader = useReaderName();
  const draft = context.draft!;
  const change = (patch: Partial<MateDraft>) => actor.send({ type: 'DRAFT.CHANGE', draft: patch });
  const all = checkMateDraft(draft, context.visibility ?? 'draft');
  // Missing fields are told after a refused save; lengths are told as they are typed.
  const problems: MateDraftProblems = Object.fromEntries(
    Object.entries(all).filter(([, problem]) => context.checked || problem !== 'required'),
  );
  const canWrite = !busy && chats > 0;
  const writeAgain = (field: RegenerableField) => (
    <WriteAgain
      field={field}
      busyField={context.busyField}
      disabled={!canWrite || generating}
      onWrite={() => actor.send({ type: 'REGENERATE', field })}
    />
  );
  // A save the draft's own rules refuse: the first marked field takes the focus (the message
  // under the buttons is read, but the field may be far above them, out of sight).
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (!refused) return;
    const form = document.getElementById('studio-draft')?.closest('form');
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refused]);
  const save = (visibility: MateVisibility) => {
    // A press while a call runs does nothing (the buttons only look disabled, see below).
    if (busy) return;
    actor.send({ type: 'SAVE', visibility });
    if (
      !actor.getSnapshot().hasTag('busy') &&
      Object.keys(checkMateDraft(draft, visibility)).length
    )
      setRefused((count) => count + 1);
  };
  const failure = context.error;
  return (
    <Card
      as="form"
      aria-labelledby="studio-draft"
      onSubmit={(event) => {
        event.preventDefault();
        save(editing?.visibility ?? 'private');
      }}
    >
      <Flex justify="between" align="center" gap={3} wrap>
        <Heading as="h2" size={2} id="studio-draft">
          {t('generate.draft')}
        </Heading>
        {context.idea.idea.trim() !== '' && (
          <Button
            variant="soft"
            aria-disabled={!canWrite}
            onClick={() => {
              if (canWrite) actor.send({ type: 'REGENERATE_ALL' });
            }}
          >
            {t('generate.writeAll')}
          </Button>
        )}
      </Flex>
      <Text size={2} tone="muted">
        {t('generate.writeCost', { cost: ROLE_DRAFT_COST_CHATS, count: chats })}
      </Text>
      {generating && <Progress onCancel={() => actor.send({ type: 'CANCEL' })} />}
      {failure && !busy && (
        <Text role="alert" tone="danger">
          {failure.failure === 'generate' || failure.failure === 'regenerate'
            ? t('format.label', { label: t(FAILURE_TEXT[failure.failure]) })
            : t(FAILURE_TEXT[failure.failure])}{' '}
          {failureText(failure, t)}
        </Text>
      )}
      <FieldRow action={writeAgain('name')}>
        <TextField
          label={t('generate.fields.name')}
          value={draft.name}
          disabled={context.busyField === 'name' || generating}
          required
          error={problemText(t, 'name', problems, i18n.language)}
          onChange={(event) => change({ name: event.target.value })}
        />
      </FieldRow>
      <FieldRow action={writeAgain('tagline')}>
        <TextField
          label={t('generate.fields.tagline')}
          value={draft.tagline}
          disabled={context.busyField === 'tagline' || generating}
          error={problemText(t, 'tagline', problems, i18n.language)}
          onChange={(event) => change({ tagline: event.target.value })}
        />
      </FieldRow>
      {LONG_FIELDS.map((field) => (
        <FieldRow key={field} action={writeAgain(field)}>
          <TextArea
            label={t(`generate.fields.${field}`)}
            value={draft[field]}
            disabled={context.busyField === field || generating}
            required={field === 'first_mes' && context.visibility !== 'draft' && context.checked}
            error={problemText(t, field, problems, i18n.language)}
            onChange={(event) => change({ [field]: event.target.value })}
          />
        </FieldRow>
      ))}
      <AlternateGreetings
        greetings={draft.alternate_greetings}
        disabled={context.busyField === 'alternate_greetings' || generating}
        problems={problems}
        action={writeAgain('alternate_greetings')}
        onChange={(alternate_greetings) => change({ alternate_greetings })}
      />
      <FieldRow action={writeAgain('tags')}>
        <Stack gap={1}>
          <Text size={2} id="studio-draft-tags">
            {t('generate.fields.tags')}
          </Text>
          <Flex gap={1} wrap role="group" aria-labelledby="studio-draft-tags">
            {(groups.data ?? []).flatMap((group) =>
              group.tags.map((tag) => (
                <Chip
                  key={tag.key}
                  disabled={context.busyField === 'tags' || generating}
                  selected={draft.tags.includes(tag.key)}
                  onSelectedChange={(on) =>
                    change({
                      tags: on
                        ? [...draft.tags, tag.key]
                        : draft.tags.filter((key) => key !== tag.key),
                    })
                  }
                >
                  {tag.label}
                </Chip>
              )),
            )}
          </Flex>
          {problems.tags && (
            <Text tone="danger">{problemText(t, 'tags', problems, i18n.language)}</Text>
          )}
        </Stack>
      </FieldRow>
      <Flex gap={3} wrap>
        <Select
          label={t('generate.gender')}
          value={draft.gender}
          onValueChange={(value) => change({ gender: value as Gender })}
          options={GENDERS.map((value) => ({ value, label: t(`generate.genders.${value}`) }))}
        />
      </Flex>
      {voiceCatalog && (
        <VoiceField
          catalog={voiceCatalog}
          value={context.voice ?? null}
          onChange={(voice) => actor.send({ type: 'VOICE.CHANGE', voice })}
          greeting={fillMacros(draft.first_mes, draft.name, reader)}
        />
      )}
      {(matureAllowed || draft.nsfw) && (
        <Switch
          label={t('generate.mature')}
          checked={draft.nsfw}
          onCheckedChange={(nsfw) => change({ nsfw })}
        />
      )}
      <PortraitPicker
        actor={actor}
        current={editing?.avatar ?? null}
        seed={portraitSeed}
        onSeed={onPortraitSeed}
      />
      <GreetingPreview draft={draft} />
      {Object.keys(problems).length > 0 && context.checked && (
        <Text role="alert" tone="danger">
          {t('generate.fixProblems')}
        </Text>
      )}
      {saving && <Text role="status">{t('generate.saving')}</Text>}
      {!busy && unsaved && <Text role="status">{t('generate.savedChangedSince')}</Text>}
      {/* `aria-disabled`, not `disabled`: the button pressed keeps the keyboard's focus while
          it saves and after a refusal, rather than dropping it to the page. */}
      <Flex gap={2} wrap>
        {editing ? (
          <Button type="submit" aria-disabled={busy} aria-busy={saving}>
            {t('generate.saveChanges')}
          </Button>
        ) : (
          <>
            <Button variant="soft" aria-disabled={busy} onClick={() => save('draft')}>
              {t('generate.saveDraft')}
            </Button>
            <Button variant="soft" aria-disabled={busy} onClick={() => save('private')}>
              {t('generate.savePrivate')}
            </Button>
            <Button aria-disabled={busy} onClick={() => save('public')}>
              {t('generate.publish')}
            </Button>
          </>
        )}
      </Flex>
    </Card>
  );
}

/** A field with its "Write again" beside it. */
function FieldRow({ action, children }: { action: ReactNode; children: ReactNode }) {
  return (
    <Stack gap={1}>
      {children}
      <Flex gap={2} align="center">
        {action}
      </Flex>
    </Stack>
  );
}

/**
 * "Write again" for one field; while that field is being written, says so beside it. The
 * button stays where it is and only says it cannot act (`aria-disabled`) while a call runs, so
 * that the one pressed from the keyboard keeps the focus; a press meanwhile does nothing.
 */
function WriteAgain({
  field,
  busyField,
  disabled,
  onWrite,
}: {
  field: RegenerableField;
  busyField: RegenerableField | null;
  disabled: boolean;
  onWrite: () => void;
}) {
  const { t } = useTranslation();
  const name = t(`generate.fields.${field}`);
  return (
    <Flex align="center" gap={2}>
      {busyField === field && (
        <Text size={2} role="status" aria-live="polite">
          {t('generate.writing', { field: name })}
        </Text>
      )}
      <Button
        size="small"
        variant="ghost"
        aria-disabled={disabled}
        aria-label={t('generate.writeAgainField', { field: name })}
        onClick={() => {
          if (!disabled) onWrite();
        }}
      >
        {t('generate.writeAgain')}
      </Button>
    </Flex>
  );
}

/** The alternate greetings: each editable and removable, and one more to add. */
function AlternateGreetings({
  greetings,
  disabled,
  problems,
  action,
  onChange,
}: {
  greetings: string[];
  disabled: boolean;
  problems: MateDraftProblems;
  action: ReactNode;
  onChange: (greetings: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  return (
    <Stack gap={2} role="group" aria-labelledby={headingId}>
      <Text size={2} weight="medium" id={headingId}>
        {t('generate.fields.alternate_greetings')}
      </Text>
      {greetings.map((greeting, index) => (
        <Stack gap={1} key={index}>
          <TextArea
            label={t('generate.alternate', { number: index + 1 })}
            value={greeting}
            disabled={disabled}
            error={problemText(t, `alternate_greetings.${index}`, problems, i18n.language)}
            onChange={(event) =>
              onChange(greetings.map((old, at) => (at === index ? event.target.value : old)))
            }
          />
          <Flex>
            <Button
              size="small"
              variant="ghost"
              disabled={disabled}
              onClick={() => onChange(greetings.filter((_, at) => at !== index))}
            >
              {t('generate.removeAlternate', { number: index + 1 })}
            </Button>
          </Flex>
        </Stack>
      ))}
      {problems.alternate_greetings && (
        <Text tone="danger">{problemText(t, 'alternate_greetings', problems, i18n.language)}</Text>
      )}
      <Flex gap={2} align="center" wrap>
        <Button
          size="small"
          variant="soft"
          disabled={disabled || greetings.length >= ALTERNATE_GREETINGS_LIMIT.count}
          onClick={() => onChange([...greetings, ''])}
        >
          {t('generate.addAlternate')}
        </Button>
        {action}
      </Flex>
    </Stack>
  );
}
