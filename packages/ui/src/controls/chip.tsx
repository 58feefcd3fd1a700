'use client';

import type { ComponentPropsWithoutRef } from 'react';
import { styled } from '../theme/stitches.config';

const StyledChip = /* @__PURE__ */ styled('button', {
  all: 'unset',
  boxSizing: 'border-box',
  display: 'inline-flex',
  alignItems: 'center',
  height: '32px',
  px: '$3',
  borderRadius: '$round',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$2',
  cursor: 'pointer',
  '&:hover': { borderColor: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
  '&[aria-pressed="true"]': {
    backgroundColor: '$accent',
    borderColor: '$accent',
    color: '$onAccent',
  },
});
const StaticTag = /* @__PURE__ */ styled('span', {
  display: 'inline-flex',
  alignItems: 'center',
  height: '24px',
  px: '$2',
  borderRadius: '$round',
  backgroundColor: '$surfaceRaised',
  color: '$textMuted',
  fontSize: '$1',
});

/** Props of {@link Chip}. */
export interface ChipProps extends Omit<ComponentPropsWithoutRef<'button'>, 'onChange'> {
  /** Whether it is on. */
  selected: boolean;
  /** Called with the new state when pressed. */
  onSelectedChange: (selected: boolean) => void;
  children: string;
}

/** A toggle chip (a tag filter): a button that says whether it is pressed. */
export function Chip({ selected, onSelectedChange, ...props }: ChipProps) {
  return (
    <StyledChip
      type="button"
      aria-pressed={selected}
      onClick={() => onSelectedChange(!selected)}
      {...props}
    />
  );
}

/** Props of {@link Tag}. */
export interface TagProps {
  children: string;
}

/** A small read-only label. */
export function Tag({ children }: TagProps) {
  return <StaticTag>{children}</StaticTag>;
}
