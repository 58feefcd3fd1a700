import { fieldSentence, textsFor, type SentenceKey } from '../i18n/texts';

/**
 * What kind of refusal a {@link DomainError} is. Only `http/` turns it into an envelope code:
 * each is named as in `CODE` (`badInput` 4000, `forbidden` 4003, `notFound` 4004, `conflict`
 * 4009, `notice` 5007).
 */
export type Refusal = 'badInput' | 'forbidden' | 'notFound' | 'conflict' | 'notice';

/** Values a sentence is written with (`{{count}}`, `{{name}}`…). */
export type SentenceValues = Record<string, string | number>;

/**
 * A refusal a service means to report, in the domain's own terms: what kind it is and which
 * sentence says it (a key of the server's texts, `i18n/en.ts`). Services and repositories throw
 * it and know nothing of HTTP; `http/` maps it to an envelope in the caller's language. Its
 * `message` is the English sentence, for logs.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly refusal: Refusal,
    readonly key: SentenceKey,
    readonly values: SentenceValues = {},
    readonly options: {
      /** A refusal that passes by itself: when to ask again (`Retry-After`, seconds). */
      retryAfterSeconds?: number;
      /** Why, in one word, for clients that explain it in their own words (`d.reason`). */
      reason?: string;
      /** The input field the sentence is about: said first ("password: …"), see {@link invalidField}. */
      field?: string;
    } = {},
  ) {
    super(sentenceOf('en', key, values, options.field));
  }

  /** The sentence in `language`. */
  sentence(language: string): string {
    return sentenceOf(language, this.key, this.values, this.options.field);
  }
}

function sentenceOf(
  language: string,
  key: SentenceKey,
  values: SentenceValues,
  field: string | undefined,
): string {
  const sentence = textsFor(language)(key, values);
  return field === undefined ? sentence : fieldSentence(language, field, sentence);
}

/** Why a refusal was made, for clients that explain it (`d.reason` of an error envelope). */
export const REASON = {
  /** No language model is set up (no `LLM_MODEL` file, no download, no provider). */
  modelMissing: 'model-missing',
} as const;

/** A refusal shown to the person as a notice (5007): a rule, a limit, a busy room. */
export const refused = (
  key: SentenceKey,
  values?: SentenceValues,
  options?: DomainError['options'],
) => new DomainError('notice', key, values, options);

/** No such thing, or not the caller's to see (4004). */
export const missing = (key: SentenceKey, values?: SentenceValues) =>
  new DomainError('notFound', key, values);

/** Known, but not the caller's to do (4003). */
export const forbidden = (key: SentenceKey, values?: SentenceValues) =>
  new DomainError('forbidden', key, values);

/** Bad input the service found (4000), a field's sentence. */
export const invalid = (key: SentenceKey, values?: SentenceValues) =>
  new DomainError('badInput', key, values);

/**
 * Bad input in one field that the service found (4000), said as a form's field errors are:
 * "password: must not be only spaces", the field named as people read it in their language.
 * `key` is the sentence about the field (`fieldErrors.*`).
 */
export const invalidField = (field: string, key: SentenceKey, values?: SentenceValues) =>
  new DomainError('badInput', key, values, { field });
