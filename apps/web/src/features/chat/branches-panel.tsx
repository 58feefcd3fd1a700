import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_EXPORT_FORMATS, type Branch, type ChatExportFormat } from '@mates/api-client';
import { Button, Flex, Heading, Sheet, SideLink, Stack, Text } from '@mates/ui';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { plainPreview } from '../../components/plain-text';
import { Loading, LoadError } from '../../components/states';
import { errorText } from '../../i18n/error-text';
import { href } from '../../lib/paths';
import { branchTree, type BranchNode } from './branch-paths';
import { useBranches, useDeleteBranch, useExportChat } from './use-branches';

/** Props of {@link BranchesPanel}. */
export interface BranchesPanelProps {
  roomId: string;
  mateName: string;
  /** In a group chat, the group's name: its paths are the group's, not its first member's. */
  groupName?: string | null;
  open: boolean;
  onClose: () => void;
}

/**
 * The Branches view, a side sheet (the whole screen on a phone): every path of the chat as a
 * tree, each under the path it was branched from, the one open now marked; opening one, deleting
 * one (any but the one open), and exporting the one open.
 */
export function BranchesPanel({ roomId, mateName, groupName, open, onClose }: BranchesPanelProps) {
  const { t } = useTranslation();
  return (
    <Sheet
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('branches.title')}
      description={
        groupName
          ? t('branches.descriptionGroup', { name: groupName })
          : t('branches.description', { name: mateName })
      }
      closeLabel={t('auth.close')}
      // The focus goes in on the path open now (the sheet itself while they load), never on
      // the first "Delete branch", which would otherwise be the first control.
      onOpenAutoFocus={(event) => {
        const sheet = event.currentTarget as HTMLElement;
        event.preventDefault();
        (sheet.querySelector<HTMLElement>('a[aria-current="page"]') ?? sheet).focus();
      }}
    >
      {open && <BranchesContent roomId={roomId} onOpen={onClose} />}
    </Sheet>
  );
}

function BranchesContent({ roomId, onOpen }: { roomId: string; onOpen: () => void }) {
  const { t } = useTranslation();
  const branches = useBranches(roomId, { fresh: true });
  const remove = useDeleteBranch();
  const [doomed, setDoomed] = useState<Branch | null>(null);
  const listId = useId();
  const treeId = useId();
  // Once a path is deleted and gone from the list (read again), its Delete button with it, the
  // focus goes to the path listed after it, else before it, not to the page.
  const focusAfter = useRef<{ gone: string; to: string } | null>(null);
  useEffect(() => {
    const after = focusAfter.current;
    if (after === null || doomed !== null) return;
    if (branches.data?.branches.some((branch) => branch.roomId === after.gone)) return;
    focusAfter.current = null;
    const link = href('/chat-detail', { roomId: after.to });
    document
      .getElementById(treeId)
      ?.querySelector<HTMLElement>(`a[href="${CSS.escape(link)}"]`)
      ?.focus();
  }, [doomed, branches.data, treeId]);
  if (branches.isPending) return <Loading />;
  if (branches.isError)
    return <LoadError query={branches} title={t('branches.error')} wayOn={[]} />;
  const all = branches.data.branches;
  // Named by when they were made, as the server lists them: Branch 1 is the chat's first path.
  const nameOf = (branch: Branch) =>
    t('branches.name', { number: all.findIndex((b) => b.roomId === branch.roomId) + 1 });
  /** Deletes the path asked about; the focus then goes beside it, as listed. */
  const deletePath = (gone: Branch) => {
    const shown = listed(branchTree(all));
    const at = shown.findIndex((branch) => branch.roomId === gone.roomId);
    const beside = shown[at + 1] ?? shown[at - 1];
    remove.mutate(gone.roomId, {
      onSuccess: () => {
        if (beside) focusAfter.current = { gone: gone.roomId, to: beside.roomId };
        setDoomed(null);
      },
    });
  };
  const item = (node: BranchNode) => (
    <BranchItem
      key={node.branch.roomId}
      node={node}
      roomId={roomId}
      nameOf={nameOf}
      onOpen={onOpen}
      onDelete={setDoomed}
    />
  );
  return (
    <Stack gap={4}>
      <Stack gap={2} as="section" aria-labelledby={listId}>
        <Heading as="h3" size={1} id={listId}>
          {t('branches.count', { count: all.length })}
        </Heading>
        <Stack id={treeId} as="ul" gap={2} aria-labelledby={listId}>
          {branchTree(all).map(item)}
        </Stack>
      </Stack>
      <ExportChat roomId={roomId} />
      <ConfirmDialog
        open={doomed !== null}
        title={t('branches.confirmDelete', { name: doomed ? nameOf(doomed) : '' })}
        text={t('branches.confirmDeleteText')}
        confirm={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => doomed && deletePath(doomed)}
        onCancel={() => setDoomed(null)}
      />
    </Stack>
  );
}

/** The paths in the order the tree lists them: each, then its branches. */
const listed = (nodes: BranchNode[]): Branch[] =>
  nodes.flatMap((node) => [node.branch, ...listed(node.children)]);

/** One path: a link to its chat (its preview, its messages, when it changed), then its branches. */
function BranchItem({
  node,
  roomId,
  nameOf,
  onOpen,
  onDelete,
}: {
  node: BranchNode;
  roomId: string;
  nameOf: (branch: Branch) => string;
  onOpen: () => void;
  onDelete: (branch: Branch) => void;
}) {
  const { t, i18n } = useTranslation();
  const { branch, children } = node;
  const current = branch.roomId === roomId;
  const name = nameOf(branch);
  const date = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(branch.updatedAt));
  return (
    <li>
      <Stack gap={2}>
        <Flex gap={2} align="center">
          <div style={{ flex: 1, minWidth: 0 }}>
            <SideLink
              href={href('/chat-detail', { roomId: branch.roomId })}
              current={current}
              onClick={onOpen}
            >
              <Stack gap={0}>
                <Text weight="medium">{current ? t('branches.current', { name }) : name}</Text>
                <Text tone="muted" size={2}>
                  {plainPreview(branch.preview, 90) || t('recent.noMessages')}
                </Text>
                <Text tone="muted" size={1}>
                  {t('branches.details', { count: branch.messageCount, date })}
                </Text>
              </Stack>
            </SideLink>
          </div>
          {!current && (
            <Button
              size="small"
              variant="ghost"
              aria-label={t('branches.deleteNamed', { name })}
              onClick={() => onDelete(branch)}
            >
              {t('branches.delete')}
            </Button>
          )}
        </Flex>
        {children.length > 0 && (
          <Stack
            as="ul"
            gap={2}
            aria-label={t('branches.from', { name })}
            style={{ paddingInlineStart: '1.25rem' }}
          >
            {children.map((child) => (
              <BranchItem
                key={child.branch.roomId}
                node={child}
                roomId={roomId}
                nameOf={nameOf}
                onOpen={onOpen}
                onDelete={onDelete}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </li>
  );
}

const FORMAT_KEYS = {
  json: 'branches.exportJson',
  markdown: 'branches.exportMarkdown',
  jsonl: 'branches.exportJsonl',
} as const satisfies Record<ChatExportFormat, string>;

/** "Export this branch" in each format: the file the server writes is saved under its name. */
function ExportChat({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const exportChat = useExportChat(roomId);
  const headingId = useId();
  // Said in the panel, not as a notice over it: a notice above the open sheet took the first
  // Escape, and the panel stayed open.
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <Stack gap={2} as="section" aria-labelledby={headingId}>
      <Heading as="h3" size={1} id={headingId}>
        {t('branches.export')}
      </Heading>
      <Text size={2} tone="muted">
        {t('branches.exportText')}
      </Text>
      <Flex gap={2} wrap>
        {CHAT_EXPORT_FORMATS.map((format) => {
          const busy = exportChat.isPending && exportChat.variables === format;
          return (
            <Button
              key={format}
              size="small"
              variant="soft"
              aria-busy={busy}
              // Pressed again while its file is written, it does nothing: else saved twice.
              onClick={() => {
                if (busy) return;
                setSaved(null);
                exportChat.mutate(format, { onSuccess: (file) => setSaved(file.fileName) });
              }}
            >
              {t(FORMAT_KEYS[format])}
            </Button>
          );
        })}
      </Flex>
      <Text role="status" tone="muted" size={2}>
        {saved === null ? null : t('branches.saved', { fileName: saved })}
      </Text>
      {exportChat.isError && (
        <Text role="alert" tone="danger" size={2}>
          {errorText(exportChat.error, t)}
        </Text>
      )}
    </Stack>
  );
}
