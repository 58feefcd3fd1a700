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
      bottom: {
        bottom: 0,
        paddingTop: '$2',
        paddingBottom: '$3',
        borderTop: '1px solid $border',
        // Over the page's own bottom padding: no empty band under a composer on the edge.
        marginBottom: '-$5',
      },
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

const Column = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$4',
  // The scrolling container of a screen without header, less the page's padding above and below.
  minHeight: 'calc(100dvh - 2 * $space$5)',
});
const Rest = /* @__PURE__ */ styled('div', { flex: '1 0 auto' });

/** Props of {@link FillHeight} and {@link FillRest}. */
export interface FillHeightProps {
  children: ReactNode;
}

/**
 * A column at least as tall as a screen without header (a conversation), so that what is
 * docked at its bottom sits on the bottom edge even when there is little above it; its
 * {@link FillRest} takes the room left.
 */
export function FillHeight({ children }: FillHeightProps) {
  return <Column>{children}</Column>;
}

/** The part of a {@link FillHeight} column that grows to take the room left. */
export function FillRest({ children }: FillHeightProps) {
  return <Rest>{children}</Rest>;
}
