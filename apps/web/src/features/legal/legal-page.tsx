import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { Heading, Link, Stack, Text } from '@mates/ui';
import { href } from '../../app/paths';
import { Page } from '../../components/page';
import type { LegalTexts } from './content/types';

// A cache that says so: each language's texts are one chunk, fetched once per page load.
const loaded = new Map<string, Promise<LegalTexts>>();
const LOADERS: Record<string, () => Promise<LegalTexts>> = {
  en: async () => (await import('./content/en')).en,
  es: async () => (await import('./content/es')).es,
};

function texts(language: string): Promise<LegalTexts> {
  const code = language in LOADERS ? language : 'en';
  if (!loaded.has(code)) loaded.set(code, LOADERS[code]!());
  return loaded.get(code)!;
}

/** A legal or help page (privacy, terms, guidelines, FAQ) in the user's language. */
export function LegalPage({ page }: { page: keyof LegalTexts }) {
  const { t, i18n } = useTranslation();
  const content = use(texts(i18n.language))[page];
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
