'use client';

import { useId } from 'react';
import * as RadixSelect from '@radix-ui/react-select';
import { styled } from '../theme/stitches.config';
import { usePortalClassName } from '../theme/theme-context';

const Field = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$1',
});
const Label = /* @__PURE__ */ styled('label', {
  fontSize: '$2',
  fontWeight: '$medium',
  color: '$text',
});
const Trigger = /* @__PURE__ */ styled(RadixSelect.Trigger, {
  all: 'unset',
  boxSizing: 'border-box',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '$2',
  height: '$field',
  px: '$3',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  cursor: 'pointer',
  '&:focus-visible': { boxShadow: '$focus' },
});
const Content = /* @__PURE__ */ styled(RadixSelect.Content, {
  overflow: 'hidden',
  borderRadius: '$2',
  backgroundColor: '$surfaceRaised',
  boxShadow: '$raised',
  // Above dialogs (100): a select inside a dialog opens over its overlay.
  zIndex: 110,
});
const Item = /* @__PURE__ */ styled(RadixSelect.Item, {
  all: 'unset',
  display: 'flex',
  alignItems: 'center',
  height: '36px',
  px: '$3',
  color: '$text',
  cursor: 'pointer',
  '&[data-highlighted]': { backgroundColor: '$accent', color: '$onAccent' },
  '&[data-state="checked"]': { fontWeight: '$bold' },
});

/** One option. */
export interface SelectOption {
  value: string;
  label: string;
}

/** Props of {@link Select}. */
export interface SelectProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: SelectOption[];
}

/** A labelled choice of one option (language, gender), by mouse or keyboard. */
export function Select({ label, value, onValueChange, options }: SelectProps) {
  const id = useId();
  const portalClassName = usePortalClassName();
  return (
    <Field>
      <Label htmlFor={id}>{label}</Label>
      <RadixSelect.Root value={value} onValueChange={onValueChange}>
        <Trigger id={id} aria-label={label}>
          <RadixSelect.Value />
          <RadixSelect.Icon aria-hidden="true">▾</RadixSelect.Icon>
        </Trigger>
        <RadixSelect.Portal>
          <Content className={portalClassName} position="popper" sideOffset={4}>
            <RadixSelect.Viewport>
              {options.map((option) => (
                <Item key={option.value} value={option.value}>
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                </Item>
              ))}
            </RadixSelect.Viewport>
          </Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </Field>
  );
}
