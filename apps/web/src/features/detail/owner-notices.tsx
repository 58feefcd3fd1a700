import { useTranslation } from 'react-i18next';
import type { Mate, MateModeration } from '@mates/api-client';
import { ButtonLink, Card, Flex, Heading, Link, Stack, Text } from '@mates/ui';
import { href } from '../../lib/paths';

/**
 * The moderators' decision, said plainly, with what it means; its creator also gets what to
 * do about it. (The server tells only the creator and administrators.)
 */
export function HiddenNotice({
  moderation,
  mateId,
  own,
}: {
  moderation: MateModeration;
  mateId: string;
  own: boolean;
}) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
    new Date(moderation.hiddenAt),
  );
  return (
    <Card as="section" aria-labelledby="detail-hidden">
      <Heading as="h2" size={1} id="detail-hidden">
        <Text as="span" tone="danger" size={4} weight="bold">
          {t('detail.hiddenTitle', { reason: t(`report.reasons.${moderation.reason}`) })}
        </Text>
      </Heading>
      {moderation.note && <Text>{t('detail.hiddenNote', { note: moderation.note })}</Text>}
      <Text tone="muted" size={2}>
        {t('detail.hiddenWhen', { date })}
      </Text>
      <Text>{own ? t('detail.hiddenText') : t('detail.hiddenOthers')}</Text>
      {own && (
        <Flex gap={3} align="center" wrap>
          <ButtonLink size="small" href={href('/generate', { mateId })}>
            {t('detail.editShort')}
          </ButtonLink>
          <Link href={href('/support')}>{t('detail.contactSupport')}</Link>
        </Flex>
      )}
    </Card>
  );
}

/** "Your mate", for its creator: who can see it, and the editor. */
export function OwnMate({ mate }: { mate: Mate }) {
  const { t } = useTranslation();
  return (
    <Card as="section" aria-labelledby="detail-own">
      <Flex gap={3} align="center" justify="between" wrap>
        <Stack gap={1}>
          <Heading as="h2" size={1} id="detail-own">
            {t('detail.own')}
          </Heading>
          <Text weight="bold">
            {t('detail.visibilityIs', { visibility: t(`visibility.${mate.visibility}`) })}
          </Text>
          <Text tone="muted" size={2}>
            {t(`detail.visibilityText.${mate.visibility}`)}
          </Text>
        </Stack>
        <ButtonLink
          variant="soft"
          size="small"
          href={href('/generate', { mateId: mate.mateId })}
          aria-label={t('detail.edit', { name: mate.name })}
        >
          {t('detail.editShort')}
        </ButtonLink>
      </Flex>
    </Card>
  );
}
