import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type Messages } from './en';

/** The languages the app is written in, by code, each named in itself (for the menu). */
export const LANGUAGES: Record<string, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
};

// English ships in the first bundle; any other language is its own chunk, fetched once.
const LOADERS: Record<string, () => Promise<Messages>> = {
  es: async () => (await import('./es')).es,
  fr: async () => (await import('./fr')).fr,
};

/** A language the app has, or English. */
export function supportedLanguage(language: string): string {
  return language in LANGUAGES ? language : 'en';
}

/** Makes the app's i18next instance, English loaded; call {@link switchLanguage} to switch. */
export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

/** Loads `language` if it is not loaded yet, then switches to it and marks the document. */
export async function switchLanguage(instance: I18n, language: string): Promise<void> {
  const code = supportedLanguage(language);
  if (!instance.hasResourceBundle(code, 'translation')) {
    const load = LOADERS[code];
    if (load) instance.addResourceBundle(code, 'translation', await load());
  }
  await instance.changeLanguage(code);
  document.documentElement.lang = code;
}
