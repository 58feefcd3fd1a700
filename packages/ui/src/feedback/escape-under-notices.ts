import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

// Radix gives Escape to the page's top layer only, and a notice is a layer (Radix Toast), shown
// above whatever was open when it came: raised from a sheet, it took the sheet's Escape, and the
// person pressed it twice to close what they were in. A notice now leaves an Escape pressed in
// one of the kit's modals to that modal, which closes as Radix would have closed it.

/** Marks the content of the kit's modals (a dialog, a sheet, the side drawer). */
export const MODAL_MARK = { 'data-kit-modal': '' } as const;

// The Escapes a notice left to the modal they were pressed in, until that modal takes them.
const leftToModal = new WeakSet<Event>();

/**
 * A notice's `onEscapeKeyDown`: an Escape pressed in a modal is the modal's. The notice stays
 * (its time, or its close button, ends it); an Escape pressed in the notice, or with no modal
 * open, closes it as before.
 */
export function leaveEscapeToModal(event: KeyboardEvent): void {
  const target = event.target;
  if (!(target instanceof Element) || !target.closest('[data-kit-modal]')) return;
  event.preventDefault();
  leftToModal.add(event);
}

/**
 * A modal's `onKeyDown`: on an Escape a notice left to it, asks `onEscapeKeyDown` (the modal's
 * own, which may keep it open) and then `close`s, as Radix does for an Escape it hears itself.
 */
export function escapeLeftByNotices(
  onEscapeKeyDown: ((event: KeyboardEvent) => void) | undefined,
  close: () => void,
) {
  return (event: ReactKeyboardEvent) => {
    const escape = event.nativeEvent;
    if (event.key !== 'Escape' || !leftToModal.has(escape)) return;
    // Taken here: a modal around this one (a dialog opened from a sheet) does not close too.
    leftToModal.delete(escape);
    if (!preventedWhenAsked(escape, onEscapeKeyDown)) close();
  };
}

/**
 * Whether `ask` prevents `event` now: the notice has prevented it already, so `ask` is shown the
 * event as not prevented yet (its target and keys as they are), and what it does is kept apart.
 */
function preventedWhenAsked(
  event: KeyboardEvent,
  ask: ((event: KeyboardEvent) => void) | undefined,
): boolean {
  if (!ask) return false;
  let prevented = false;
  ask(
    new Proxy(event, {
      get(target, key) {
        if (key === 'preventDefault') return () => void (prevented = true);
        if (key === 'defaultPrevented') return prevented;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    }),
  );
  return prevented;
}
