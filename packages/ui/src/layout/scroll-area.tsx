import { forwardRef, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';

// The browser's own scrolling (wheel, touch, keyboard, find-in-page, momentum on phones),
// with a thin scrollbar in the theme's colours.
const Scroller = /* @__PURE__ */ styled('div', {
  // The containing block of what is positioned inside (a visually hidden label is absolute):
  // otherwise such an element below the fold escapes the scroller and makes the whole page
  // taller than the screen, which then scrolls by that much (a conversation on a phone).
  position: 'relative',
  height: '100%',
  width: '100%',
  overflowY: 'auto',
  overscrollBehavior: 'contain',
  scrollbarWidth: 'thin',
  scrollbarColor: '$colors$border transparent',
  '&:focus-visible': { outline: 'none', boxShadow: 'inset $focus' },
});

/** Props of {@link ScrollArea}. */
export interface ScrollAreaProps {
  children: ReactNode;
  /** The region's accessible name, e.g. "Main content". */
  label?: string;
}

/**
 * A scrolling region with a themed scrollbar: the app's main container. The ref is the
 * element that scrolls, so the app can scroll it to the top after each navigation.
 */
export const ScrollArea = /* @__PURE__ */ forwardRef<HTMLDivElement, ScrollAreaProps>(
  function ScrollArea({ children, label }, ref) {
    return (
      <Scroller
        ref={ref}
        aria-label={label}
        tabIndex={label ? 0 : undefined}
        role={label ? 'region' : undefined}
      >
        {children}
      </Scroller>
    );
  },
);
