import { useSuspenseQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Heading, Link, Stack, Text } from '@mates/ui';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import type { LegalTexts } from './content/types';
import { legalLanguage, legalTextsQuery } from './api/legal-queries';

/** A legal or help page (privacy, terms, guidelines, FAQ) in the user's language. */
export function LegalPage({ page }: { page: keyof LegalTexts }) {
  const { t, i18n } = useTranslation();
  const texts = useSuspenseQuery(legalTextsQuery(legalLanguage(i18n.language)));
  const content = texts.data[page];
  return (
    <Page title={content.title}>
      {content.updated && (
        <Text tone="muted" size={2}>
          {content.updated}
        </Text>
      )}
      <Text size={3}>{content.lead}</Text>
      {content.sections.map((section) => (
        <Stack key={section.heading} gap={2} as="section">
          <Heading as="h2" size={2}>
            {section.heading}
          </Heading>
          {section.paragraphs.map((paragraph) => (
            <Text key={paragraph.slice(0, 40)}>{paragraph}</Text>
          ))}
        </Stack>
      ))}
      {page === 'faq' && <Link href={href('/support')}>{t('legalLinks.support')}</Link>}
    </Page>
  );
}
