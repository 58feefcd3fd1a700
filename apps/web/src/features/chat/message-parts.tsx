import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text';
import type { Message } from '@mates/api-client';
import { Button, Card, Flex, IconButton, TextArea } from '@mates/ui';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useServices } from '../../lib/services-context';
import { refreshRoom } from './api/room-cache';
import { useSayFailure } from './use-say-failure';
import { highlightRing, jumpTarget } from './use-jump-to-message';

/** A 16-pixel line icon of one path, hidden from screen readers (its button is named). */
export const Icon = ({ d }: { d: string }) => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden="true"
  >
    <path d={d} />
  </svg>
);

/** A message's buttons: regenerate (the last reply only), edit, branch from here, delete. */
export function MessageActions({
  canRegenerate,
  regenerateLabel = 'chat.regenerate',
  onRegenerate,
  onEdit,
  onBranch,
  branching = false,
  onDelete,
  focusEdit = false,
  onEditFocused,
  focusRegenerate = false,
  onRegenerateFocused,
}: {
  canRegenerate: boolean;
  /** What the button says: "Regenerate reply", or on the person's unanswered message "Ask for a reply". */
  regenerateLabel?: 'chat.regenerate' | 'chat.askForReply';
  onRegenerate: () => void;
  onEdit: () => void;
  /** "Branch from here": a new path of the chat from this message (absent: not offered). */
  onBranch?: () => void;
  /** The branch is being made. */
  branching?: boolean;
  onDelete: () => void;
  /** Focus goes back to Edit (the message's editor just closed), once: then `onEditFocused`. */
  focusEdit?: boolean;
  onEditFocused?: () => void;
  /**
   * A regeneration ended: Regenerate takes the focus if it was lost (the pressed button went
   * while the reply was written), once: then `onRegenerateFocused`.
   */
  focusRegenerate?: boolean;
  onRegenerateFocused?: () => void;
}) {
  const { t } = useTranslation();
  const edit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusEdit) return;
    edit.current?.focus();
    onEditFocused?.();
  }, [focusEdit, onEditFocused]);
  const regenerate = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusRegenerate || !canRegenerate) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected) regenerate.current?.focus();
    onRegenerateFocused?.();
  }, [focusRegenerate, canRegenerate, onRegenerateFocused]);
  return (
    <Flex gap={1}>
      {canRegenerate && (
        <IconButton
          ref={regenerate}
          label={t(regenerateLabel)}
          icon={<Icon d="M21 12a9 9 0 1 1-3-6.7M21 3v6h-6" />}
          size="small"
          onClick={onRegenerate}
        />
      )}
      <IconButton
        ref={edit}
        label={t('chat.edit')}
        icon={<Icon d="M4 20h4L19 9l-4-4L4 16v4Z" />}
        size="small"
        onClick={onEdit}
      />
      {onBranch && (
        <IconButton
          label={t('branches.branchHere')}
          icon={
            <Icon d="M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM18 9a9 9 0 0 1-9 9" />
          }
          size="small"
          aria-busy={branching}
          onClick={() => !branching && onBranch()}
        />
      )}
      <IconButton
        label={t('chat.delete')}
        icon={<Icon d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />}
        size="small"
        // Where the focus goes after the message beside it is deleted (`useFocusAfterDelete`).
        data-message-action="delete"
        onClick={onDelete}
      />
    </Flex>
  );
}

/**
 * Edits a message in place; saving keeps the change on the server. A user's message can also
 * be saved and answered again: the conversation continues from it (`onContinue`).
 */
export function MessageEditor({
  roomId,
  message,
  onDone,
  onSaved,
  onContinue,
  highlighted = false,
  deletesLater = 0,
}: {
  roomId: string;
  message: Message;
  /**
   * How many messages "Save and reply again" deletes (those after it, when the person wrote one
   * of them): asked first, with a word on branching to keep them. 0 asks nothing.
   */
  deletesLater?: number;
  /** Marked: the message a link led to (a memory's source). */
  highlighted?: boolean;
  onDone: () => void;
  /** The change was kept (e.g. to drop the message's old voice). */
  onSaved?: () => void;
  /** Asks for a new reply to the edited message (later messages go). */
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const [content, setContent] = useState(message.content);
  const [problem, setProblem] = useState('');
  const [confirming, setConfirming] = useState(false);
  const save = useMutation({
    mutationFn: (_then: 'done' | 'continue') =>
      client.room.editMessage({ roomId, messageId: message.messageId, content: content.trim() }),
    onSuccess: async (_saved, then) => {
      onSaved?.();
      await refreshRoom(queries, roomId);
      onDone();
      if (then === 'continue') onContinue();
    },
    // The server's refusal shows by the field; the edit stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  const target = jumpTarget(message.messageId);
  const submit = (then: 'done' | 'continue', confirmed = false) => {
    // Said by the field: an empty message is not saved (deleting it is its own action).
    if (!content.trim()) return setProblem(t('chat.editEmpty'));
    setProblem('');
    // Found from outside: answering an earlier message again deleted the turns after it, the
    // person's own messages among them, without a word.
    if (then === 'continue' && deletesLater > 0 && !confirmed) return setConfirming(true);
    setConfirming(false);
    save.mutate(then);
  };
  return (
    <Card
      as="form"
      // A link to the message (a memory's source) reaches it in its editor too.
      {...target}
      style={{ ...target.style, ...highlightRing(highlighted) }}
      onSubmit={(event) => {
        event.preventDefault();
        submit('done');
      }}
    >
      <TextArea
        label={t('chat.editLabel')}
        value={content}
        autoFocus
        error={problem || undefined}
        onChange={(event) => setContent(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
      />
      <Flex gap={2} justify="end" wrap>
        <Button variant="ghost" size="small" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        {message.role === 'user' && (
          <Button
            variant="soft"
            size="small"
            aria-busy={save.isPending && save.variables === 'continue'}
            onClick={() => submit('continue')}
          >
            {t('chat.saveAndContinue')}
          </Button>
        )}
        <Button type="submit" size="small" aria-busy={save.isPending && save.variables === 'done'}>
          {t('common.save')}
        </Button>
      </Flex>
      <ConfirmDialog
        open={confirming}
        title={t('chat.replyAgainTitle')}
        text={t('chat.replyAgainText', { count: deletesLater })}
        confirm={t('chat.replyAgainConfirm')}
        busy={save.isPending}
        onConfirm={() => submit('continue', true)}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}

/**
 * ‹ 2/3 › on the last reply when it has versions (alternate greetings, kept regenerations):
 * choosing one makes it what the conversation continues from.
 */
export function SwipeControls({
  roomId,
  message,
  onChosen,
}: {
  roomId: string;
  message: Message;
  onChosen: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const sayFailure = useSayFailure();
  const choose = useMutation({
    mutationFn: (index: number) =>
      client.room.chooseSwipe({ roomId, messageId: message.messageId, index }),
    onSuccess: async () => {
      onChosen();
      await refreshRoom(queries, roomId);
    },
    // The version shown stays; the person hears why the other did not come.
    onError: sayFailure,
  });
  const swipes = message.swipes;
  if (!swipes) return null;
  const busy = choose.isPending;
  const canPrevious = !busy && swipes.index > 0;
  const canNext = !busy && swipes.index < swipes.count - 1;
  return (
    <Flex gap={1} align="center" role="group" aria-label={t('chat.versions')}>
      <IconButton
        label={t('chat.previousVersion')}
        icon={<Icon d="M15 18l-6-6 6-6" />}
        size="small"
        // aria-disabled, not disabled: the pressed button keeps the focus while the choice is
        // saved, and at the first or last version (a disabled button drops it to the page).
        aria-disabled={!canPrevious}
        onClick={() => canPrevious && choose.mutate(swipes.index - 1)}
      />
      <span
        aria-live="polite"
        style={{ fontSize: '0.8rem', minWidth: '2.5em', textAlign: 'center' }}
      >
        {t('chat.versionOf', { number: swipes.index + 1, count: swipes.count })}
      </span>
      <IconButton
        label={t('chat.nextVersion')}
        icon={<Icon d="M9 18l6-6-6-6" />}
        size="small"
        aria-disabled={!canNext}
        onClick={() => canNext && choose.mutate(swipes.index + 1)}
      />
    </Flex>
  );
}
