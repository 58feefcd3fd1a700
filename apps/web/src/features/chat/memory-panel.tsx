import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Memory, MemoryWriter, RoomGroup } from '@mates/api-client';
import {
  Button,
  EmptyState,
  Flex,
  Heading,
  Select,
  Sheet,
  Spinner,
  Stack,
  Switch,
  Text,
} from '@mates/ui';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError } from '../../components/states';
import { errorText } from '../../i18n/error-text';
import { MemoryEditor, MemoryItem } from './memory-item';
import { PromptViewDialog } from './prompt-view';
import { useMemories, type MemoriesState } from './use-memories';

/** Props of {@link MemoryPanel}. */
export interface MemoryPanelProps {
  roomId: string;
  mateName: string;
  /**
   * A group chat: each member keeps its own memories beside the group's shared ones (the panel
   * shows whose each is, and which to see), and "Remember me across chats" belongs to each
   * mate's own chats (each brings what it knows of the person), so it is explained, not offered.
   */
  group?: RoomGroup;
  /** Whether the chat can go on: else its memories are shown, not changed. */
  canChange: boolean;
  open: boolean;
  onClose: () => void;
  /** Takes the reader to a message of the conversation, once the panel has closed. */
  onJump: (messageId: string) => void;
}

/**
 * The Memory panel, a side sheet (the whole screen on a phone): what the mate remembers of the
 * chat, the writer's state, "Remember me across chats", adding a memory, and the way to "What
 * the mate sees".
 */
export function MemoryPanel({
  roomId,
  mateName,
  group,
  canChange,
  open,
  onClose,
  onJump,
}: MemoryPanelProps) {
  const { t } = useTranslation();
  // "From the chat" closes the panel; the jump starts once it has closed, and takes the focus.
  const jump = useRef<string | null>(null);
  return (
    <Sheet
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('memory.title')}
      description={
        group ? t('memory.descriptionGroup') : t('memory.description', { name: mateName })
      }
      closeLabel={t('auth.close')}
      // Escape in a memory's editor cancels the editor, not the panel.
      onEscapeKeyDown={(event) => {
        if (event.target instanceof HTMLTextAreaElement) event.preventDefault();
      }}
      onCloseAutoFocus={(event) => {
        if (jump.current === null) return;
        event.preventDefault();
        onJump(jump.current);
        jump.current = null;
      }}
    >
      {open && (
        <MemoryContent
          roomId={roomId}
          mateName={mateName}
          group={group}
          canChange={canChange}
          onJump={(messageId) => {
            jump.current = messageId;
            onClose();
          }}
        />
      )}
    </Sheet>
  );
}

/** Which memories the panel shows in a group: `all`, the `shared` ones, or a member's id. */
type Whose = 'all' | 'shared' | (string & {});

function MemoryContent({
  roomId,
  mateName,
  group,
  canChange,
  onJump,
}: Omit<MemoryPanelProps, 'open' | 'onClose'>) {
  const { t } = useTranslation();
  const memories = useMemories(roomId);
  const [whose, setWhose] = useState<Whose>('all');
  const [adding, setAdding] = useState(false);
  const [seeing, setSeeing] = useState(false);
  const [doomed, setDoomed] = useState<Memory | null>(null);
  // Where the focus goes next: a memory just pinned or unpinned, drawn again in its new list,
  // to its Pin button; once one is forgotten, to the next one's first button (else the one
  // before, else "Add a memory"), not to the sheet, as its own Delete button has gone.
  const [focus, setFocus] = useState<{ memoryId: string; to: 'pin' | 'actions' } | null>(null);
  const focused = useCallback(() => setFocus(null), []);
  const add = useRef<HTMLButtonElement>(null);
  // Once the question about the last one has closed (its focus trap gone).
  const focusAdd = useRef(false);
  useEffect(() => {
    if (doomed !== null || !focusAdd.current) return;
    focusAdd.current = false;
    add.current?.focus();
  }, [doomed]);
  const hintId = useId();
  const { data } = memories.memories;
  if (memories.memories.isPending) return <Loading />;
  if (memories.memories.isError || !data)
    return <LoadError query={memories.memories} title={t('memory.error')} wayOn={[]} />;
  const owners = ownersOf(group, data.memories);
  // A member's view: what it remembers, the group's shared memories and its own.
  const seen = data.memories.filter(
    (memory) =>
      whose === 'all' || memory.mateId === null || (whose !== 'shared' && memory.mateId === whose),
  );
  // Whose words a memory is in a group: the member that keeps it, else the group's (shared).
  const nameOf = (memory: Memory) =>
    (group && owners.find((owner) => owner.mateId === memory.mateId)?.name) || mateName;
  const ownerLabel = (memory: Memory) =>
    group &&
    (memory.mateId === null
      ? t('memory.shared')
      : t('memory.ownedBy', {
          name: owners.find((owner) => owner.mateId === memory.mateId)?.name ?? mateName,
        }));
  const summary = seen.filter((memory) => memory.kind === 'summary');
  const facts = seen.filter((memory) => memory.kind === 'fact');
  const pinned = facts.filter((memory) => memory.pinned);
  const others = facts.filter((memory) => !memory.pinned);
  /** Forgets the memory asked about; the focus goes to the one after it, as listed. */
  const forget = (gone: Memory) => {
    const shown = [...summary, ...pinned, ...others];
    const at = shown.findIndex((memory) => memory.memoryId === gone.memoryId);
    const next = shown[at + 1] ?? shown[at - 1];
    memories.forget.mutate(gone.memoryId, {
      onSuccess: () => {
        if (next) setFocus({ memoryId: next.memoryId, to: 'actions' });
        else focusAdd.current = true;
        setDoomed(null);
      },
    });
  };
  const item = (memory: Memory) => (
    <li key={memory.memoryId}>
      <MemoryItem
        memory={memory}
        mateName={nameOf(memory)}
        owner={ownerLabel(memory) || undefined}
        memories={memories}
        canChange={canChange}
        onDelete={() => setDoomed(memory)}
        onJump={onJump}
        focus={focus?.memoryId === memory.memoryId ? focus.to : null}
        onPinned={() => setFocus({ memoryId: memory.memoryId, to: 'pin' })}
        onFocused={focused}
      />
    </li>
  );
  return (
    <Stack gap={4}>
      <WriterState writer={data.writer} memories={memories} />
      {group ? (
        <Text size={2} tone="muted">
          {t('memory.groupAcrossChats')}
        </Text>
      ) : (
        <Stack gap={1}>
          <Switch
            label={t('memory.acrossChats')}
            checked={data.acrossChats}
            disabled={!canChange}
            aria-describedby={hintId}
            onCheckedChange={(enabled) => memories.acrossChats.mutate(enabled)}
          />
          <Text id={hintId} size={2} tone="muted">
            {t('memory.acrossChatsHint', { name: mateName })}
          </Text>
        </Stack>
      )}
      <Flex gap={2} wrap>
        {canChange && !adding && (
          <Button ref={add} size="small" onClick={() => setAdding(true)}>
            {t('memory.add')}
          </Button>
        )}
        <Button size="small" variant="soft" onClick={() => setSeeing(true)}>
          {group ? t('memory.seePromptGroup') : t('memory.seePrompt', { name: mateName })}
        </Button>
      </Flex>
      {group && (
        <Select
          label={t('memory.whose')}
          value={whose}
          onValueChange={setWhose}
          options={[
            { value: 'all', label: t('memory.whoseAll') },
            { value: 'shared', label: t('memory.whoseShared') },
            ...owners.map((owner) => ({
              value: owner.mateId,
              label: t('memory.whoseMate', { name: owner.name }),
            })),
          ]}
        />
      )}
      {adding && (
        <MemoryEditor
          label={t('memory.addLabel')}
          placeholder={t('memory.addHint', { name: mateName })}
          initial=""
          initialAbout="person"
          withAbout
          // In a group, whose it is: the member being looked at, else the whole group's.
          {...(group && {
            owners: [
              { value: '', label: t('memory.ownerShared') },
              ...owners
                .filter((owner) => owner.present)
                .map((owner) => ({ value: owner.mateId, label: owner.name })),
            ],
            initialOwner: owners.some((owner) => owner.present && owner.mateId === whose)
              ? whose
              : '',
          })}
          memories={memories}
          onSave={(content, about, owner) => ({
            content,
            about,
            ...(group && { mateId: owner || null }),
          })}
          onDone={() => setAdding(false)}
        />
      )}
      {data.memories.length === 0 ? (
        <EmptyState
          title={t('memory.emptyTitle')}
          description={t('memory.emptyText', { name: mateName })}
        />
      ) : seen.length === 0 ? (
        <Text tone="muted">{t('memory.noneHere')}</Text>
      ) : (
        <>
          <MemoryList title={t('memory.summary')} memories={summary} item={item} />
          <MemoryList title={t('memory.pinned')} memories={pinned} item={item} />
          <MemoryList title={t('memory.facts')} memories={others} item={item} />
        </>
      )}
      <ConfirmDialog
        open={doomed !== null}
        title={t('memory.confirmDelete')}
        text={t('memory.confirmDeleteText', { name: doomed ? nameOf(doomed) : mateName })}
        confirm={t('memory.forget')}
        busy={memories.forget.isPending}
        onConfirm={() => doomed && forget(doomed)}
        onCancel={() => setDoomed(null)}
      />
      <PromptViewDialog
        roomId={roomId}
        mateName={mateName}
        group={Boolean(group)}
        open={seeing}
        onClose={() => setSeeing(false)}
      />
    </Stack>
  );
}

/**
 * The members a group's memories may belong to: those in the group now, then those that left
 * and kept some memories here (`present` false: nothing new is given to them).
 */
function ownersOf(group: RoomGroup | undefined, memories: Memory[]) {
  if (!group) return [];
  return group.members
    .filter(
      (member) =>
        member.leftAt === null || memories.some((memory) => memory.mateId === member.mate.mateId),
    )
    .map((member) => ({
      mateId: member.mate.mateId,
      name: member.mate.name,
      present: member.leftAt === null,
    }));
}

/** A titled list of memories (the summary, the pinned ones, the others), when it has any. */
function MemoryList({
  title,
  memories,
  item,
}: {
  title: string;
  memories: Memory[];
  item: (memory: Memory) => ReactNode;
}) {
  const id = useId();
  if (memories.length === 0) return null;
  return (
    <Stack gap={2} as="section" aria-labelledby={id}>
      <Heading as="h3" size={1} id={id}>
        {title}
      </Heading>
      <Stack gap={2} as="ul" aria-labelledby={id}>
        {memories.map(item)}
      </Stack>
    </Stack>
  );
}

/**
 * "Writing memories…" while the mate writes them; a failure with its reason and "Try again".
 * Once "Try again" is taken, its button goes: the focus moves to the region, which then says
 * that the memories are being written.
 */
function WriterState({ writer, memories }: { writer: MemoryWriter; memories: MemoriesState }) {
  const { t } = useTranslation();
  const { writeAgain } = memories;
  // The same element whether the writer failed or writes: it keeps the focus across.
  const region = useRef<HTMLDivElement>(null);
  if (writer.state !== 'writing' && writer.state !== 'failed') return null;
  return (
    <div ref={region} tabIndex={-1}>
      {writer.state === 'writing' ? (
        <Flex gap={2} align="center">
          <Spinner label={t('memory.writing')} />
          <Text size={2} aria-hidden="true">
            {t('memory.writing')}
          </Text>
        </Flex>
      ) : (
        <Flex role="alert" gap={2} align="center" justify="between" wrap>
          <Stack gap={1}>
            <Text tone="danger" size={2}>
              {t('memory.failed')}
            </Text>
            {writer.error && (
              <Text tone="muted" size={2}>
                {writer.error}
              </Text>
            )}
            {writeAgain.isError && (
              <Text tone="danger" size={2}>
                {errorText(writeAgain.error, t)}
              </Text>
            )}
          </Stack>
          <Button
            size="small"
            variant="soft"
            aria-busy={writeAgain.isPending}
            onClick={() =>
              writeAgain.mutate(undefined, { onSuccess: () => region.current?.focus() })
            }
          >
            {t('memory.retry')}
          </Button>
        </Flex>
      )}
    </div>
  );
}
