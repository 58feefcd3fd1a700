'use client';

import { useId } from 'react';
import { styled } from '../theme/stitches.config';

const Group = /* @__PURE__ */ styled('fieldset', {
  margin: 0,
  padding: 0,
  border: 'none',
  minWidth: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: '$2',
});
const Legend = /* @__PURE__ */ styled('legend', {
  padding: 0,
  marginBottom: '$2',
  fontSize: '$2',
  fontWeight: '$medium',
  color: '$text',
});
const Options = /* @__PURE__ */ styled('div', {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(88px, 1fr))',
  gap: '$2',
});
const Option = /* @__PURE__ */ styled('label', {
  position: 'relative',
  display: 'block',
  aspectRatio: '2 / 3',
  borderRadius: '$2',
  overflow: 'hidden',
  border: '3px solid transparent',
  backgroundColor: '$surfaceRaised',
  cursor: 'pointer',
  '&:has(input:checked)': { borderColor: '$accent' },
  '&:has(input:focus-visible)': { boxShadow: '$focus' },
  '&:has(input:disabled)': { cursor: 'not-allowed', opacity: 0.6 },
});
// The native radio stays in the accessibility tree and takes the keyboard (arrows move the
// choice, Tab leaves the group); it is only drawn over by its picture.
const Radio = /* @__PURE__ */ styled('input', {
  position: 'absolute',
  inset: 0,
  margin: 0,
  opacity: 0,
  cursor: 'inherit',
});
const Picture = /* @__PURE__ */ styled('img', {
  display: 'block',
  size: '100%',
  objectFit: 'cover',
});

/** One picture to choose. */
export interface ImageChoice {
  /** What choosing it gives back. */
  value: string;
  /** The picture's address. */
  src: string;
  /** What the picture shows: its alternative text and the radio's name. */
  alt: string;
}

/** Props of {@link ImageChoices}. */
export interface ImageChoicesProps {
  /** Names the group (its legend). */
  label: string;
  /** The pictures. */
  options: ImageChoice[];
  /** The chosen value, or `null` for none. */
  value: string | null;
  /** Called with the value chosen. */
  onValueChange: (value: string) => void;
  disabled?: boolean;
}

/**
 * A choice of one picture among several (a portrait): a radio group of images, each named by
 * its alternative text, moved through with the arrow keys.
 */
export function ImageChoices({
  label,
  options,
  value,
  onValueChange,
  disabled,
}: ImageChoicesProps) {
  const name = useId();
  return (
    <Group disabled={disabled}>
      <Legend>{label}</Legend>
      <Options>
        {options.map((option) => (
          <Option key={option.value}>
            <Radio
              type="radio"
              name={name}
              value={option.value}
              aria-label={option.alt}
              checked={value === option.value}
              onChange={() => onValueChange(option.value)}
            />
            <Picture src={option.src} alt="" />
          </Option>
        ))}
      </Options>
    </Group>
  );
}
