import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PromptPart, PromptView } from '@mates/api-client';
import { Button, Card, Dialog, EmptyState, Flex, Heading, Meter, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { Loading, LoadError } from '../../components/states';
import { promptViewQuery } from './api/chat-queries';

/** Props of {@link PromptViewDialog}. */
export interface PromptViewDialogProps {
  roomId: string;
  mateName: string;
  /** A group chat: its last reply's prompt is its last speaker's, not the group's. */
  group?: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * "What the mate sees": the prompt of the chat's last reply, part by part, each with its tokens,
 * its share of the model's context and its whole text on demand; how many older messages are
 * left out (and whether a summary tells what they said); and whether it was built again since.
 */
export function PromptViewDialog({
  roomId,
  mateName,
  group = false,
  open,
  onClose,
}: PromptViewDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={group ? t('prompt.titleGroup') : t('prompt.title', { name: mateName })}
      description={t('prompt.description')}
      closeLabel={t('auth.close')}
      width={640}
    >
      {/* Read afresh at each opening: the last reply may have changed. */}
      {open && <PromptContent roomId={roomId} mateName={mateName} />}
    </Dialog>
  );
}

function PromptContent({ roomId, mateName }: { roomId: string; mateName: string }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const view = useQuery(promptViewQuery(client, roomId));
  if (view.isPending) return <Loading />;
  if (view.isError) return <LoadError query={view} title={t('prompt.error')} wayOn={[]} />;
  if (view.data.messageId === null)
    return (
      <EmptyState
        title={t('prompt.emptyTitle')}
        description={t('prompt.emptyText', { name: mateName })}
      />
    );
  return <PromptParts view={view.data} />;
}

/** Tokens as people read them, in the interface's language. */
function useTokens() {
  const { i18n } = useTranslation();
  return (count: number) => count.toLocaleString(i18n.language);
}

function PromptParts({ view }: { view: PromptView }) {
  const { t } = useTranslation();
  const tokens = useTokens();
  const { totalTokens, contextTokens, replyTokens } = view;
  const used = contextTokens > 0 ? totalTokens / contextTokens : 0;
  return (
    <Stack gap={4}>
      <Stack gap={1}>
        <Text>
          {t('prompt.total', {
            total: tokens(totalTokens),
            size: tokens(contextTokens),
            reply: tokens(replyTokens),
          })}
        </Text>
        <Meter
          value={used}
          label={t('prompt.totalLabel')}
          tone={totalTokens + replyTokens > contextTokens ? 'danger' : 'accent'}
        />
      </Stack>
      {view.leftOut > 0 && (
        <Text>
          {t('prompt.leftOut', { count: view.leftOut })}
          {/* Only a summary stands for them: nothing may be remembered of them yet. */}
          {view.parts.some((part) => part.kind === 'summary') &&
            ` ${t('prompt.leftOutSummarized')}`}
        </Text>
      )}
      {view.rebuilt && (
        <Text role="note" tone="muted" size={2}>
          {t('prompt.rebuilt')}
        </Text>
      )}
      <Stack as="ul" gap={2} aria-label={t('prompt.description')}>
        {view.parts.map((part) => (
          <li key={part.kind}>
            <Part part={part} contextTokens={contextTokens} />
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

/** One part: its name, tokens and items, its share of the context, its text on demand. */
function Part({ part, contextTokens }: { part: PromptPart; contextTokens: number }) {
  const { t } = useTranslation();
  const tokens = useTokens();
  const [shown, setShown] = useState(false);
  const textId = useId();
  const name = t(`prompt.parts.${part.kind}`);
  const share = contextTokens > 0 ? part.tokens / contextTokens : 0;
  const percent = share > 0 && share < 0.01 ? '<1' : String(Math.round(share * 100));
  const items =
    part.kind === 'character' || part.kind === 'instructions'
      ? null
      : part.kind === 'history'
        ? t('prompt.messages', { count: part.items })
        : part.kind === 'lore'
          ? t('prompt.entries', { count: part.items })
          : t('prompt.memories', { count: part.items });
  return (
    <Card>
      <Stack gap={2}>
        <Flex justify="between" align="center" gap={2} wrap>
          <Heading as="h3" size={1}>
            {name}
          </Heading>
          <Text as="span" size={2} tone="muted">
            {[t('prompt.tokens', { count: part.tokens }), items, t('prompt.share', { percent })]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Flex>
        <Meter
          value={share}
          label={t('prompt.shareLabel', { part: name })}
          valueText={`${tokens(part.tokens)} / ${tokens(contextTokens)}`}
        />
        <div>
          <Button
            variant="ghost"
            size="small"
            aria-expanded={shown}
            aria-controls={textId}
            onClick={() => setShown((value) => !value)}
          >
            {shown ? t('prompt.hideText') : t('prompt.showText')}
          </Button>
        </div>
        <Text id={textId} size={2} hidden={!shown} style={{ whiteSpace: 'pre-wrap' }}>
          {part.text}
        </Text>
      </Stack>
    </Card>
  );
}
