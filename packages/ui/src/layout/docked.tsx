import type { ReactNode } from 'react';
import { styled } from '../theme/stitches.config';

const Bar = /* @__PURE__ */ styled('div', {
  position: 'sticky',
  // Above the content that scrolls under it; below popovers (20) and dialogs (100).
  zIndex: 5,
  backgroundColor: '$bg',
  variants: {
    edge: {
      top: { top: 0, paddingBottom: '$2', borderBottom: '1px solid $border' },
      bottom: { bottom: 0, paddingTop: '$2', paddingBottom: '$3', borderTop: '1px solid $border' },
    },
  },
});

/** Props of {@link Docked}. */
export interface DockedProps {
  /** Which edge of the scrolling container it stays at. */
  edge: 'top' | 'bottom';
  /** Its accessible name, when it is a region of its own (e.g. "Write a message"). */
  label?: string;
  children: ReactNode;
}

/**
 * A bar that stays at the top or bottom edge of the scrolling container while the content
 * between scrolls (a conversation's top bar and composer), on every screen size.
 */
export function Docked({ edge, label, children }: DockedProps) {
  return (
    <Bar edge={edge} role={label ? 'region' : undefined} aria-label={label}>
      {children}
    </Bar>
  );
}
