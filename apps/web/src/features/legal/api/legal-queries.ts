import { queryOptions } from '@tanstack/react-query';
import type { LegalTexts } from '../content/types';

// Each language's texts are a chunk of their own, fetched when first read.
const LOADERS: Record<string, () => Promise<LegalTexts>> = {
  en: async () => (await import('../content/en')).en,
  es: async () => (await import('../content/es')).es,
  fr: async () => (await import('../content/fr')).fr,
};

/** The query keys of the legal pages. */
export const legalKeys = {
  /** Every legal and help text, in one language. */
  texts: (language: string) => ['legal', language] as const,
};

/** The language the legal texts are read in: the person's, when they exist in it; else English. */
export const legalLanguage = (language: string) => (language in LOADERS ? language : 'en');

/** The legal and help texts in one language (see {@link legalLanguage}): they never change. */
export const legalTextsQuery = (language: string) =>
  queryOptions({
    queryKey: legalKeys.texts(language),
    queryFn: LOADERS[language]!,
    staleTime: Infinity,
  });
