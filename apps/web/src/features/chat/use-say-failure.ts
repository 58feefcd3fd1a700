import { useTranslation } from 'react-i18next';
import { ApiError, ENVELOPE_CODES } from '@mates/api-client';
import { errorText } from '../../i18n/error-text';
import { useServices } from '../../lib/services-context';

/**
 * Says a failed call in a notice, where the control has no place for it. (A refusal, 5007, the
 * client has said already.)
 */
export function useSayFailure(): (error: Error) => void {
  const { t } = useTranslation();
  const { notices } = useServices();
  return (error: Error) => {
    if (ApiError.isInstance(error) && error.code === ENVELOPE_CODES.notice) return;
    notices.trigger.added({ tone: 'negative', message: errorText(error, t) });
  };
}
