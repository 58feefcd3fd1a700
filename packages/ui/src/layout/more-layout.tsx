import type { ComponentPropsWithoutRef } from 'react';
import { styled } from '../theme/stitches.config';

const StyledGrid = /* @__PURE__ */ styled('div', {
  display: 'grid',
  gap: '$4',
  variants: {
    columns: {
      1: { gridTemplateColumns: '1fr' },
      2: {
        gridTemplateColumns: '1fr',
        '@bp2': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
      },
      3: {
        gridTemplateColumns: '1fr',
        '@bp2': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
        '@bp3': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
      },
    },
  },
  defaultVariants: { columns: 2 },
});
const StyledLink = /* @__PURE__ */ styled('a', {
  color: '$accent',
  textDecoration: 'underline',
  textUnderlineOffset: '2px',
  borderRadius: '$1',
  '&:hover': { color: '$accentStrong' },
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
});
const StyledCard = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
  padding: '$4',
  borderRadius: '$3',
  border: '1px solid $border',
  backgroundColor: '$surface',
  minWidth: 0,
});

/** Props of {@link Card}. */
export type CardProps = ComponentPropsWithoutRef<'div'> & {
  /** The element it renders as, e.g. `section` or `li`; default `div`. */
  as?: 'div' | 'section' | 'article' | 'li' | 'form' | 'nav';
};

/** A bordered surface holding one thing: a setting, a persona, a conversation in a list. */
export function Card(props: CardProps) {
  return <StyledCard {...props} />;
}

/** Props of {@link Grid}. */
export interface GridProps extends ComponentPropsWithoutRef<'div'> {
  /** Columns on wide screens; one column on phones. */
  columns?: 1 | 2 | 3;
}

/** A responsive grid of equal columns. */
export function Grid(props: GridProps) {
  return <StyledGrid {...props} />;
}

/** Props of {@link Link}. */
export type LinkProps = ComponentPropsWithoutRef<'a'>;

/** A text link. */
export function Link(props: LinkProps) {
  return <StyledLink {...props} />;
}
