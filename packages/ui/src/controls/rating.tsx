'use client';

import { styled } from '../theme/stitches.config';

const Group = /* @__PURE__ */ styled('div', {
  display: 'inline-flex',
  gap: '$1',
  border: 'none',
  margin: 0,
  padding: 0,
});
const Star = /* @__PURE__ */ styled('button', {
  all: 'unset',
  fontSize: '$5',
  lineHeight: 1,
  color: '$border',
  cursor: 'pointer',
  borderRadius: '$1',
  '&[data-filled="true"]': { color: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
  '&:disabled': { cursor: 'default' },
});

/** Props of {@link Rating}. */
export interface RatingProps {
  /** The group's accessible name, e.g. "Your rating". */
  label: string;
  /** 0 (none) to 5. */
  value: number;
  /** Absent: read-only. */
  onValueChange?: (value: number) => void;
  /** e.g. (n) => `${n} stars`. */
  starLabel?: (stars: number) => string;
}

/** One to five stars, read-only or chosen by click or keyboard. */
export function Rating({
  label,
  value,
  onValueChange,
  starLabel = (stars) => `${stars} star${stars === 1 ? '' : 's'}`,
}: RatingProps) {
  if (!onValueChange) {
    return (
      <Group role="img" aria-label={`${label}: ${starLabel(value)}`}>
        {[1, 2, 3, 4, 5].map((star) => (
          <Star as="span" key={star} data-filled={star <= value} aria-hidden="true">
            ★
          </Star>
        ))}
      </Group>
    );
  }
  return (
    <Group role="group" aria-label={label}>
      {[1, 2, 3, 4, 5].map((star) => (
        <Star
          key={star}
          type="button"
          data-filled={star <= value}
          aria-label={starLabel(star)}
          aria-pressed={star === value}
          onClick={() => onValueChange(star)}
        >
          ★
        </Star>
      ))}
    </Group>
  );
}
