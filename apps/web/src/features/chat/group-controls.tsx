import { useTranslation } from 'react-i18next';
import { GROUP_LIMITS, type RoomGroup } from '@mates/api-client';
import { Button, Flex, Stack, Text } from '@mates/ui';
import { currentMembers } from '../../components/group/group-look';
import type { ReplyStream } from './use-reply-stream';

/**
 * Under a group's message box: what a reply costs (before anything is sent), then "Continue"
 * (one more reply by the next speaker) and "Let X speak" for each member, muted ones too, but
 * not one the person's own setting hides (the server would refuse it). In manual order nobody
 * answers on their own, so the buttons say so first.
 */
export function GroupControls({
  group,
  stream: { chat, busy, settling, reply },
}: {
  group: RoomGroup;
  stream: Pick<ReplyStream, 'chat' | 'busy' | 'settling' | 'reply'>;
}) {
  const { t } = useTranslation();
  const members = currentMembers(group).filter((member) => !member.hidden);
  // The server's count, as the room was read (after a reload, or another tab's), unless a turn
  // of this page is not read back yet: then this page's own.
  const inRow = Math.max(reply.nextsInRow, busy || settling ? 0 : group.continuesInRow);
  const enough = inRow >= GROUP_LIMITS.continuesInRow;
  // A message nobody answered (manual order, everyone muted): the person lets a mate speak.
  const unanswered = !busy && reply.ended && reply.userMessage !== null && !reply.replyMessageId;
  // aria-disabled, not disabled: the pressed button keeps the keyboard's focus while the mates
  // write (a disabled one drops it to the page); a press meanwhile does nothing.
  const waitNow = busy || enough;
  return (
    <Stack gap={2}>
      <Text tone="muted" size={1}>
        {t('group.cost', { max: GROUP_LIMITS.repliesPerTurn })}
      </Text>
      {(group.turnOrder === 'manual' || unanswered) && (
        <Text tone="muted" size={2} role={unanswered ? 'status' : undefined}>
          {t('group.manual')}
        </Text>
      )}
      {enough && (
        <Text tone="muted" size={2} role="status">
          {t('group.enough')}
        </Text>
      )}
      <Flex role="group" aria-label={t('group.goOn')} gap={2} wrap>
        <Button
          size="small"
          variant="soft"
          aria-disabled={waitNow}
          aria-label={t('group.continueLabel')}
          onClick={() => !waitNow && chat.send({ type: 'CONTINUE' })}
        >
          {t('group.continue')}
        </Button>
        {members.map(({ mate, muted }) => (
          <Button
            key={mate.mateId}
            size="small"
            variant={group.turnOrder === 'manual' ? 'soft' : 'ghost'}
            aria-disabled={waitNow}
            onClick={() => !waitNow && chat.send({ type: 'LET_SPEAK', speakerId: mate.mateId })}
          >
            {t('group.letSpeak', { name: mate.name })}
            {muted ? ` (${t('group.muted')})` : ''}
          </Button>
        ))}
      </Flex>
    </Stack>
  );
}
