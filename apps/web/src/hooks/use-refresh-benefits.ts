import { useCallback } from 'react';
import { useServices } from '../lib/services-context';

/** Asks the server what the user has left, and keeps it (after a charge or a refund). */
export function useRefreshBenefits(): () => void {
  const { client, store } = useServices();
  return useCallback(
    () =>
      void client.user
        .benefits()
        .then((benefits) => store.trigger.benefitsChanged({ benefits }))
        .catch(() => undefined),
    [client, store],
  );
}
