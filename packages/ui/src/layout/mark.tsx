import type { ComponentPropsWithoutRef } from 'react';
import { styled } from '../theme/stitches.config';

const StyledMark = /* @__PURE__ */ styled('mark', {
  // The theme's accent rather than the browser's yellow: readable on both themes.
  backgroundColor: '$accent',
  color: '$onAccent',
  borderRadius: '$1',
  paddingInline: '2px',
  fontWeight: '$medium',
});

/** Props of {@link Mark}. */
export type MarkProps = ComponentPropsWithoutRef<'mark'>;

/** Words marked in running text: what a search matched. */
export function Mark(props: MarkProps) {
  return <StyledMark {...props} />;
}
