import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Mate } from '@mates/api-client';
import { Avatar, Button, ButtonLink, Card, Flex, Heading, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href, routeTo } from '../../lib/paths';
import { errorText } from '../../i18n/error-text';

const SAVED_TEXT = {
  draft: 'generate.savedDraft',
  private: 'generate.savedPrivate',
  public: 'generate.savedPublic',
} as const;

/** The mate is saved: where to go next. A draft cannot be chatted with yet. */
export function SavedPanel({ mate, onEdit }: { mate: Mate; onEdit: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const navigate = useNavigate();
  const chat = useMutation({
    mutationFn: () => client.room.createRoom({ mateId: mate.mateId }),
    onSuccess: (room) => navigate(routeTo('/chat-detail', { roomId: room.roomId })),
  });
  return (
    <Card as="section" aria-labelledby="studio-saved">
      <Flex gap={4} align="center" wrap>
        <Avatar src={mate.avatar} name={mate.name} size="large" />
        <Heading as="h2" size={2} id="studio-saved">
          {t('generate.savedTitle', { name: mate.name })}
        </Heading>
      </Flex>
      <Text role="status">{t(SAVED_TEXT[mate.visibility])}</Text>
      {chat.isError && <Text tone="danger">{errorText(chat.error, t)}</Text>}
      <Flex gap={2} wrap>
        {mate.visibility !== 'draft' && (
          <Button onClick={() => chat.mutate()} aria-busy={chat.isPending}>
            {t('generate.chatNow')}
          </Button>
        )}
        <ButtonLink variant="soft" href={href('/detail', { mateId: mate.mateId })}>
          {t('generate.seeIt')}
        </ButtonLink>
        <ButtonLink variant="soft" href={href('/mine')}>
          {t('generate.yourMates')}
        </ButtonLink>
        <Button variant="ghost" onClick={onEdit}>
          {t('generate.keepEditing')}
        </Button>
      </Flex>
    </Card>
  );
}
