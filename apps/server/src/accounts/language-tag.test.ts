import { describe, expect, it } from 'vitest';
import { headerLanguage } from './account-routes';

describe("a caller's language header", () => {
  it('is taken as given when it is a language tag', () => {
    expect(headerLanguage('pt-BR')).toBe('pt-BR');
    expect(headerLanguage('es')).toBe('es');
  });

  it('is read by its first subtag when the rest is no tag ICU knows, and is English when absent or not a tag', () => {
    expect(headerLanguage('zh-yue')).toBe('zh');
    expect(headerLanguage('en-US-US')).toBe('en');
    expect(headerLanguage('fr-GB-oed')).toBe('fr');
    expect(headerLanguage(undefined)).toBe('en');
    expect(headerLanguage('not a language')).toBe('en');
  });
});
