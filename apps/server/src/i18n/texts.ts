import i18next, { type TFunction } from 'i18next';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The shape every language's sentences follow (English's). */
export type Texts = Widen<typeof en>;

// One i18next instance for the process, initialised synchronously with bundled resources:
// the server speaks the languages the web app ships (apps/web/src/i18n).
const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  resources: { en: { translation: en }, es: { translation: es }, fr: { translation: fr } },
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});

/** Every sentence's dotted key (`notices.balance.noChatsLeft`, `reply.stopped`…). */
export type SentenceKey = KeysOf<typeof en>;
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The sentences for a caller's `language` header (any unknown language gets English). */
export function textsFor(language: string): TFunction {
  return instance.getFixedT(language.split('-')[0]!.toLowerCase());
}

/**
 * The language {@link textsFor} speaks for `language` (its region dropped; English for any
 * language the server has no sentences in): what a date or number beside them is written in.
 */
export function spokenLanguage(language: string): 'en' | 'es' | 'fr' {
  const base = language.split('-')[0]!.toLowerCase();
  return base === 'es' || base === 'fr' ? base : 'en';
}

/**
 * A bad input's message in the caller's `language`: a field's sentence the server knows
 * ("email: must be an e-mail address", from a zod check) is translated, the field named as
 * people read it; any other message is kept as it is. The server's own refusals are not looked
 * up here: services throw them by their sentence's key (`domain/errors.ts`).
 */
export function inLanguage(language: string, message: string): string {
  return fieldMessage(language, message) ?? message;
}

// What bad input is told about a field ("email: must be an e-mail address"), each sentence a
// pattern: `{{number}}` stands for a number.
const fieldErrors = Object.entries(en.fieldErrors).map(([key, text]) => ({
  key: `fieldErrors.${key}`,
  pattern: new RegExp(
    `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{\\{number\\}\\}', '(\\d[\\d,]*)')}$`,
  ),
}));

/**
 * "field: sentence" in `language`, `sentence` already in it: the field named as people read it
 * where it has a name (else its key), and French's space before the colon.
 */
export function fieldSentence(language: string, field: string, sentence: string): string {
  const name = Object.hasOwn(en.fields, field) ? textsFor(language)(`fields.${field}`) : field;
  const colon = language.toLowerCase().startsWith('fr') ? ' : ' : ': ';
  return `${name}${colon}${sentence}`;
}

/**
 * A 4000's "field: sentence" in `language`, where the server knows the sentence (see
 * {@link fieldSentence}). `null` for anything else, and in English.
 */
function fieldMessage(language: string, message: string): string | null {
  const t = textsFor(language);
  if (t('fieldErrors.required') === en.fieldErrors.required) return null;
  const match = /^([\w.[\]]+): (.+)$/s.exec(message);
  if (!match) return null;
  const [, field, sentence] = match as unknown as [string, string, string];
  for (const { key, pattern } of fieldErrors) {
    const found = pattern.exec(sentence);
    if (found) return fieldSentence(language, field, t(key, { number: found[1] }));
  }
  return null;
}
