import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { NetworkError, SESSION_EXPIRED_MESSAGE, SessionExpiredError } from '@mates/api-client';

// The texts the client itself gives a failed call (SPEC's error catalogue, word for word in
// English): said in the person's language instead.
const CLIENT_TEXTS = {
  'something error': 'errors.something',
  'server error': 'errors.server',
  [SESSION_EXPIRED_MESSAGE]: 'errors.loginExpired',
} as const;

/**
 * A message from a failed call or a notice, for people in `t`'s language: the client's own
 * fallbacks ("server error", "something error", "login expired") are translated; a message
 * the server wrote is shown as it came (the server writes it in the `language` header's).
 */
export function messageText(message: string, t: TFunction): string {
  const key = Object.hasOwn(CLIENT_TEXTS, message)
    ? CLIENT_TEXTS[message as keyof typeof CLIENT_TEXTS]
    : null;
  return key ? t(key) : message;
}

/** What to tell people about `error`, in `t`'s language (see {@link messageText}). */
export function errorText(error: unknown, t: TFunction): string {
  if (SessionExpiredError.isInstance(error)) return t('errors.loginExpired');
  if (NetworkError.isInstance(error)) return t('errors.network');
  if (error instanceof Error && error.message) return messageText(error.message, t);
  return t('errors.something');
}

/** {@link errorText} in the current language, for components. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => errorText(error, t), [t]);
}
