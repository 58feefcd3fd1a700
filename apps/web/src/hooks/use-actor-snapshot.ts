import { useCallback, useSyncExternalStore } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/**
 * The actor's snapshot, re-read on every change. Unlike `@xstate/react`'s `useSelector`, an
 * actor that failed is not thrown to the nearest error boundary: its snapshot says
 * `status: 'error'`, for the screen to explain.
 */
export function useActorSnapshot<A extends AnyActorRef>(actor: A): SnapshotFrom<A> {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = actor.subscribe({ next: onChange, error: onChange });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  return useSyncExternalStore(subscribe, () => actor.getSnapshot() as SnapshotFrom<A>);
}
