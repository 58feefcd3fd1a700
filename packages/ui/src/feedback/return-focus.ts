import { useRef } from 'react';

/**
 * Focus handlers for a Radix dialog opened by the page's own control rather than a Radix
 * trigger: Radix gives focus back to its trigger only, and without one it would land on
 * `<body>`. This remembers what had focus on opening and gives it back on closing.
 */
export function useReturnFocus() {
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      returnFocusTo.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      if (!returnFocusTo.current?.isConnected) return;
      event.preventDefault();
      returnFocusTo.current.focus();
    },
  };
}
