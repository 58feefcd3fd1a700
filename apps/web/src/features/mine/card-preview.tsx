import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardPreview } from '@mates/api-client';
import { Avatar, Flex, Heading, Stack, Tag, Text } from '@mates/ui';
import { useTagLabels } from '../../hooks/use-tag-labels';
import { fillMacros, useReaderName } from '../../components/card-text';

/**
 * What importing a card would create (portrait, name, tagline, greeting, tags, spec, the
 * card's creator) and, said plainly, what it keeps but does not use and which tags it drops.
 */
export function CardPreviewView({
  preview,
  picture,
}: {
  preview: CardPreview;
  /** The PNG card's own picture, shown when it becomes the portrait. */
  picture: string | null;
}) {
  const { t } = useTranslation();
  const labels = useTagLabels();
  const headingId = useId();
  const { draft } = preview;
  const you = useReaderName();
  return (
    <Stack gap={3} as="section" aria-labelledby={headingId}>
      <Heading as="h4" size={1} id={headingId}>
        {t('cards.preview')}
      </Heading>
      <Flex gap={3} align="center">
        <Avatar
          src={preview.portraitFromCard ? picture : null}
          name={draft.name}
          size="large"
          decorative
        />
        <Stack gap={1}>
          <Text weight="bold">{draft.name}</Text>
          {draft.tagline && (
            <Text tone="muted" size={2}>
              {fillMacros(draft.tagline, draft.name, you)}
            </Text>
          )}
        </Stack>
      </Flex>
      <Text size={2}>
        {preview.portraitFromCard ? t('cards.portraitFromCard') : t('cards.portraitDrawn')}
      </Text>
      <Text size={2}>
        {t('cards.spec', { spec: preview.spec.toUpperCase() })} ·{' '}
        {preview.creator ? t('cards.creator', { creator: preview.creator }) : t('cards.noCreator')}
      </Text>
      <Stack gap={1}>
        <Text weight="bold" size={2}>
          {t('cards.greeting')}
        </Text>
        <Text size={2}>{fillMacros(draft.first_mes, draft.name, you)}</Text>
      </Stack>
      <Stack gap={1}>
        <Text weight="bold" size={2}>
          {t('cards.tags')}
        </Text>
        {draft.tags.length === 0 ? (
          <Text size={2}>{t('cards.noTags')}</Text>
        ) : (
          <Flex gap={1} wrap>
            {draft.tags.map((tag) => (
              <Tag key={tag}>{labels[tag] ?? tag}</Tag>
            ))}
          </Flex>
        )}
      </Stack>
      {preview.unused.length > 0 && (
        <Stack gap={1}>
          <Heading as="h4" size={1}>
            {t('cards.unused')}
          </Heading>
          <Text tone="muted" size={2}>
            {t('cards.unusedText')}
          </Text>
          <Stack as="ul" gap={1} aria-label={t('cards.unused')}>
            {preview.unused.map((item) => (
              <Text as="li" size={2} key={item}>
                {item}
              </Text>
            ))}
          </Stack>
        </Stack>
      )}
      {preview.droppedTags.length > 0 && (
        <Stack gap={1}>
          <Heading as="h4" size={1}>
            {t('cards.dropped')}
          </Heading>
          <Stack as="ul" gap={1} aria-label={t('cards.dropped')}>
            {preview.droppedTags.map((tag) => (
              <Text as="li" size={2} key={tag}>
                {tag}
              </Text>
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}
