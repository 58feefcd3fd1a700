import type { ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { MateCardSkeleton } from './mate-card';

const Grid = /* @__PURE__ */ styled('div', {
  display: 'grid',
  gap: '$3',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  '@bp2': { gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: '$4' },
});
const Hidden = /* @__PURE__ */ styled('span', {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
});

/** Props of {@link MateGrid}. */
export interface MateGridProps {
  /** The cards (MateCard), or nothing while loading. */
  children?: ReactNode;
  /** Shows skeleton cards and says so to screen readers. */
  loading?: boolean;
  /** How many skeletons; default 8. */
  skeletons?: number;
  /** What loading is announced as; default "Loading mates". */
  loadingLabel?: string;
  /** The grid's accessible name, e.g. "Recommended mates". */
  label: string;
}

/** A responsive grid of mate cards: two columns on phones, as many as fit on wider screens. */
export function MateGrid({
  children,
  loading = false,
  skeletons = 8,
  loadingLabel = 'Loading mates',
  label,
}: MateGridProps) {
  return (
    <section aria-label={label} aria-busy={loading}>
      {loading && <Hidden role="status">{loadingLabel}</Hidden>}
      <Grid>
        {loading
          ? Array.from({ length: skeletons }, (_, index) => <MateCardSkeleton key={index} />)
          : children}
      </Grid>
    </section>
  );
}
