import { useQuery } from '@tanstack/react-query';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { useServices } from '../../lib/services-context';
import { benefitsQuery } from '../../lib/queries';

// A module of its own, not part of studio.tsx: the forms that studio.tsx renders use it, and
// importing it from there closed an import cycle.

/** The chats the caller has left, fresh on each visit (the store, and so the header, follows). */
export function useChatsLeft(): number {
  const { client, store } = useServices();
  const chats = useStoreSelector(store, (state) => state.context.userBenefits.chats);
  useQuery(benefitsQuery(client, store));
  return chats;
}
