import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MateDraft } from '@mates/api-client';
import { Chip, ChatBubble, Flex, Stack, Text } from '@mates/ui';
import { fillMacros, useReaderName } from '../../components/card-text';

/** The greeting (or an alternate one) as the chat will open with it. */
export function GreetingPreview({ draft }: { draft: MateDraft }) {
  const { t } = useTranslation();
  const reader = useReaderName();
  const [chosen, setChosen] = useState(0);
  const greetings = [draft.first_mes, ...draft.alternate_greetings];
  const index = Math.min(chosen, greetings.length - 1);
  const name = draft.name.trim() || t('generate.unnamed');
  const text = greetings[index]!.trim();
  return (
    <Stack gap={2} as="section" aria-labelledby="studio-preview">
      <Text id="studio-preview" weight="medium">
        {t('generate.preview')}
      </Text>
      {greetings.length > 1 && (
        <Flex gap={1} wrap role="group" aria-label={t('generate.previewGreetings')}>
          {greetings.map((_, at) => (
            <Chip key={at} selected={at === index} onSelectedChange={() => setChosen(at)}>
              {at === 0
                ? t('generate.previewGreeting')
                : t('generate.previewAlternate', { number: at })}
            </Chip>
          ))}
        </Flex>
      )}
      {text ? (
        <ChatBubble
          role="mate"
          speaker={name}
          content={fillMacros(text, name, reader)}
          labels={{
            partial: t('chat.partial'),
            error: t('chat.failed'),
            edited: t('chat.edited'),
            speaker: (speaker) => t('chat.says', { name: speaker }),
          }}
        />
      ) : (
        <Text tone="muted">{t('generate.previewEmpty')}</Text>
      )}
    </Stack>
  );
}
