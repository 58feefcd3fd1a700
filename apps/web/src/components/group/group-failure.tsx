import { useTranslation } from 'react-i18next';
import { ApiError, ENVELOPE_CODES, SessionExpiredError } from '@mates/api-client';
import { Text } from '@mates/ui';
import { errorText } from '../../i18n/error-text';

/**
 * Why a group change failed (an unknown mate, a mate twice, too many: 4000), said where it was
 * asked for. A notice (5007) or an expired session is told by the app already: nothing here.
 */
export function GroupFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error || SessionExpiredError.isInstance(error)) return null;
  if (ApiError.isInstance(error) && error.code === ENVELOPE_CODES.notice) return null;
  return (
    <Text tone="danger" size={2} role="alert">
      {errorText(error, t)}
    </Text>
  );
}
