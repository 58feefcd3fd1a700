import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEMORY_TEXT_MAX, type Memory, type MemorySubject } from '@mates/api-client';
import { Button, Card, Flex, Select, Stack, Tag, Text, TextArea } from '@mates/ui';
import { errorText } from '../../i18n/error-text';
import type { MemoriesState, MemoryChange } from './use-memories';

/** The owner option of the whole group, as the select names it. */
const SHARED = 'shared';

/** Props of {@link MemoryItem}. */
export interface MemoryItemProps {
  memory: Memory;
  mateName: string;
  /** In a group, whose memory it is ("Shared", "Lyra's own"). */
  owner?: string;
  memories: MemoriesState;
  /** Whether the person may change it (a chat that can go on). */
  canChange: boolean;
  /** Asks to forget it, once confirmed. */
  onDelete: () => void;
  /** Takes the reader to the message it was made from. */
  onJump: (messageId: string) => void;
  /**
   * Where the focus goes once it is drawn: `pin`, its Pin button (it was just pinned or unpinned
   * and moved to another list); `actions`, its first button (the memory beside it was forgotten).
   */
  focus?: 'pin' | 'actions' | null;
  /** Pinned or unpinned: it moves to another list, where {@link MemoryItemProps.focus} finds it. */
  onPinned: () => void;
  /** It took the focus that {@link MemoryItemProps.focus} asked for. */
  onFocused: () => void;
}

/**
 * One memory in the Memory panel: its words, what it is about, who wrote it, a "Check this" mark
 * when a message it came from changed, and its buttons (from the chat, edit, pin, delete), or
 * its editor in their place.
 */
export function MemoryItem(props: MemoryItemProps) {
  const { t } = useTranslation();
  const { memory, mateName, owner, memories, canChange, onDelete, onJump } = props;
  const { focus = null, onPinned, onFocused } = props;
  const textId = useId();
  const [editing, setEditing] = useState(false);
  // Focus goes back to Edit once the editor closes, as it does for a message.
  const refocus = useRef(false);
  const edit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    edit.current?.focus();
  }, [editing]);
  const pin = useRef<HTMLButtonElement>(null);
  // Its first button, whichever it has: From the chat, Keep, then Edit.
  const fromChat = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus === null) return;
    if (focus === 'pin') pin.current?.focus();
    else (fromChat.current ?? keep.current ?? edit.current)?.focus();
    onFocused();
  }, [focus, onFocused]);
  const { save } = memories;
  const busy = save.isPending && save.variables.memoryId === memory.memoryId;
  const source = memory.sourceMessageIds[0];
  if (editing)
    return (
      <MemoryEditor
        label={t('memory.editLabel')}
        initial={memory.content}
        initialAbout={memory.about}
        withAbout={memory.kind === 'fact'}
        memories={memories}
        onSave={(content, about) => ({ memoryId: memory.memoryId, content, about })}
        onDone={() => {
          refocus.current = true;
          setEditing(false);
        }}
      />
    );
  return (
    <Card>
      <Stack gap={2}>
        <Text id={textId}>{memory.content}</Text>
        <Flex gap={2} align="center" wrap>
          {owner !== undefined && <Tag>{owner}</Tag>}
          {memory.kind === 'fact' && (
            <Tag>
              {memory.about === 'person' ? t('memory.aboutPerson') : t('memory.aboutStory')}
            </Tag>
          )}
          <Text as="span" size={1} tone="muted">
            {memory.author === 'mate' ? t('memory.byMate', { name: mateName }) : t('memory.byYou')}
          </Text>
        </Flex>
        {memory.needsReview && (
          <Flex gap={2} align="center" wrap>
            <Tag>{t('memory.needsReview')}</Tag>
            <Text as="span" size={2} tone="muted">
              {t('memory.needsReviewText')}
            </Text>
          </Flex>
        )}
        <Flex gap={1} wrap role="group" aria-labelledby={textId}>
          {source && (
            <Button ref={fromChat} variant="ghost" size="small" onClick={() => onJump(source)}>
              {t('memory.fromChat')}
            </Button>
          )}
          {canChange && memory.needsReview && (
            <Button
              ref={keep}
              variant="soft"
              size="small"
              aria-busy={busy}
              // Saved as it is: the server clears the mark, and Keep goes: focus to Edit. Its
              // words are not sent: ones changed since in another tab stay.
              onClick={() =>
                save.mutate(
                  { memoryId: memory.memoryId },
                  { onSuccess: () => edit.current?.focus() },
                )
              }
            >
              {t('memory.keep')}
            </Button>
          )}
          {canChange && (
            <Button ref={edit} variant="ghost" size="small" onClick={() => setEditing(true)}>
              {t('memory.edit')}
            </Button>
          )}
          {canChange && memory.kind === 'fact' && (
            <Button
              ref={pin}
              variant="ghost"
              size="small"
              aria-busy={busy}
              onClick={() =>
                save.mutate(
                  { memoryId: memory.memoryId, pinned: !memory.pinned },
                  { onSuccess: onPinned },
                )
              }
            >
              {memory.pinned ? t('memory.unpin') : t('memory.pin')}
            </Button>
          )}
          {canChange && (
            <Button variant="ghost" size="small" onClick={onDelete}>
              {t('memory.delete')}
            </Button>
          )}
        </Flex>
        {save.isError && save.variables.memoryId === memory.memoryId && (
          <Text role="alert" size={2} tone="danger">
            {errorText(save.error, t)}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** Props of {@link MemoryEditor}. */
export interface MemoryEditorProps {
  label: string;
  initial: string;
  initialAbout: MemorySubject;
  /** Whether what it is about can be chosen (facts; the summary is about the story). */
  withAbout: boolean;
  /** A hint under the field, e.g. an example. */
  placeholder?: string;
  memories: MemoriesState;
  /**
   * In a group, whose memory it may be (`value` `''`: the whole group's), chosen from
   * `initialOwner` on.
   */
  owners?: { value: string; label: string }[];
  initialOwner?: string;
  /** What to save, from the words, subject and owner (`''` for none chosen). */
  onSave: (content: string, about: MemorySubject, owner: string) => MemoryChange;
  /** Closes the editor (saved, or cancelled with its button or Escape). */
  onDone: () => void;
}

/**
 * Writes a memory in place, as a message is edited: Escape or Cancel leaves it as it was, Save
 * keeps it; at most {@link MEMORY_TEXT_MAX} characters, counted under the field.
 */
export function MemoryEditor({
  label,
  initial,
  initialAbout,
  withAbout,
  placeholder,
  owners,
  initialOwner = '',
  memories,
  onSave,
  onDone,
}: MemoryEditorProps) {
  const { t, i18n } = useTranslation();
  const counterId = useId();
  const [content, setContent] = useState(initial);
  const [about, setAbout] = useState<MemorySubject>(initialAbout);
  const [owner, setOwner] = useState(initialOwner);
  const [problem, setProblem] = useState('');
  const tooLong = content.trim().length > MEMORY_TEXT_MAX;
  // Numbers as the interface's language writes them, not the browser's.
  const number = (value: number) => value.toLocaleString(i18n.language);
  const max = number(MEMORY_TEXT_MAX);
  const submit = () => {
    // A press while it is being saved does nothing: pressed again, it would be added twice.
    if (memories.save.isPending) return;
    const trimmed = content.trim();
    if (!trimmed) return setProblem(t('memory.empty'));
    if (tooLong) return setProblem(t('memory.tooLong', { max }));
    setProblem('');
    memories.save.mutate(onSave(trimmed, about, owner), {
      onSuccess: onDone,
      // The server's refusal shows by the field; the words stay.
      onError: (error) => setProblem(errorText(error, t)),
    });
  };
  return (
    <Card
      as="form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap={1}>
        <TextArea
          label={label}
          value={content}
          placeholder={placeholder}
          autoFocus
          aria-describedby={counterId}
          error={problem || (tooLong ? t('memory.tooLong', { max }) : undefined)}
          onChange={(event) => setContent(event.target.value)}
          onKeyDown={(event) => event.key === 'Escape' && onDone()}
        />
        <Text id={counterId} size={1} tone={tooLong ? 'danger' : 'muted'}>
          {t('memory.count', { length: number(content.trim().length), max })}
        </Text>
      </Stack>
      {withAbout && (
        <Select
          label={t('memory.about')}
          value={about}
          onValueChange={(value) => setAbout(value as MemorySubject)}
          options={[
            { value: 'person', label: t('memory.aboutPerson') },
            { value: 'story', label: t('memory.aboutStory') },
          ]}
        />
      )}
      {owners && (
        <Select
          label={t('memory.owner')}
          // Radix's Select keeps `''` for "nothing chosen": the group's choice is named.
          value={owner || SHARED}
          onValueChange={(value) => setOwner(value === SHARED ? '' : value)}
          options={owners.map((option) => ({ ...option, value: option.value || SHARED }))}
        />
      )}
      <Flex gap={2} justify="end" wrap>
        <Button variant="ghost" size="small" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" size="small" aria-busy={memories.save.isPending}>
          {t('common.save')}
        </Button>
      </Flex>
    </Card>
  );
}
