'use client';

import { useId } from 'react';
import * as RadixSwitch from '@radix-ui/react-switch';
import { styled } from '../theme/stitches.config';

const Row = /* @__PURE__ */ styled('div', {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '$3',
});
const Label = /* @__PURE__ */ styled('label', {
  fontSize: '$3',
  color: '$text',
  cursor: 'pointer',
});
const Root = /* @__PURE__ */ styled(RadixSwitch.Root, {
  all: 'unset',
  position: 'relative',
  width: '44px',
  height: '24px',
  flexShrink: 0,
  borderRadius: '$round',
  backgroundColor: '$border',
  cursor: 'pointer',
  '&[data-state="checked"]': { backgroundColor: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
});
const Thumb = /* @__PURE__ */ styled(RadixSwitch.Thumb, {
  display: 'block',
  size: '20px',
  borderRadius: '$round',
  backgroundColor: '$text',
  transform: 'translateX(2px)',
  transition: 'transform 150ms',
  '&[data-state="checked"]': { transform: 'translateX(22px)', backgroundColor: '$onAccent' },
  '@reducedMotion': { transition: 'none' },
});

/** Props of {@link Switch}. */
export interface SwitchProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Ids of what describes it (a hint under it): its accessible description. */
  'aria-describedby'?: string;
}

/** An on/off setting (e.g. the nfsw preference), operable with Space. */
export function Switch({
  label,
  checked,
  onCheckedChange,
  disabled,
  'aria-describedby': describedBy,
}: SwitchProps) {
  const id = useId();
  return (
    <Row>
      <Label htmlFor={id}>{label}</Label>
      <Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={describedBy}
      >
        <Thumb />
      </Root>
    </Row>
  );
}
