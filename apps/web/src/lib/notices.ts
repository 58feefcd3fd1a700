import { createStore } from '@xstate/store';
import type { ToastNotice } from '@mates/ui';

/** The notifications on screen (a store, so that non-React code can add to it). */
export function createNoticeStore() {
  let next = 0;
  return createStore({
    context: { notices: [] as ToastNotice[] },
    on: {
      added: (context, event: { tone: ToastNotice['tone']; message: string }) => ({
        // The same message twice in a row (a 5007 also reported by a flow) shows once.
        notices: context.notices.some((notice) => notice.message === event.message)
          ? context.notices
          : [
              ...context.notices,
              { id: String((next += 1)), tone: event.tone, message: event.message },
            ],
      }),
      dismissed: (context, event: { id: string }) => ({
        notices: context.notices.filter((notice) => notice.id !== event.id),
      }),
    },
  });
}

/** The store {@link createNoticeStore} returns. */
export type NoticeStore = ReturnType<typeof createNoticeStore>;
