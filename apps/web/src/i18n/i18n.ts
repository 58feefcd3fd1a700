import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from './en';
import { enFirstScreen } from './en-first-screen';

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

// English for the screens after the first: loaded once, then given to every instance. Only
// instances made before it arrived wait in `waiting` (and leave it then): those made later are
// born with it, so nothing keeps an instance alive (Storybook makes one per story).
let enScreens: Promise<object> | undefined;
let enScreensLoaded: object | undefined;
const waiting = new Set<I18n>();

/**
 * Makes the app's i18next instance with the first screen's English (and every other screen's
 * once {@link loadScreenTexts} has loaded them); call {@link switchLanguage} to switch.
 */
export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: { ...enFirstScreen, ...enScreensLoaded } } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  if (!enScreensLoaded) waiting.add(instance);
  return instance;
}

/**
 * Loads the English texts of the screens after the first (their own chunk) into every instance:
 * each lazily loaded screen waits for it along with its code, so none draws a missing text.
 */
export function loadScreenTexts(): Promise<void> {
  enScreens ??= import('./en-screens').then(({ enScreens: texts }) => {
    enScreensLoaded = texts;
    return texts;
  });
  return enScreens.then((texts) => {
    for (const instance of waiting) instance.addResourceBundle('en', 'translation', texts, true);
    waiting.clear();
  });
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
