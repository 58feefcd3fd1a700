'use client';

import { forwardRef, useId, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { EyeIcon, EyeOffIcon } from './icons';

/** Six asterisks: what a masked value shows (docs/product.md, constants). */
export const MASKED_PLACEHOLDER = '******';

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
const InputRow = /* @__PURE__ */ styled('div', {
  position: 'relative',
  display: 'flex',
  alignItems: 'center',
});
const Input = /* @__PURE__ */ styled('input', {
  all: 'unset',
  boxSizing: 'border-box',
  width: '100%',
  height: '$field',
  px: '$3',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$3',
  '&::placeholder': { color: '$textMuted' },
  '&:focus-visible': { borderColor: '$accent', boxShadow: '$focus' },
  '&[aria-invalid="true"]': { borderColor: '$danger' },
  variants: { withAction: { true: { paddingRight: '$7' } } },
});
const ErrorText = /* @__PURE__ */ styled('p', { margin: 0, fontSize: '$2', color: '$danger' });
const Reveal = /* @__PURE__ */ styled('button', {
  all: 'unset',
  position: 'absolute',
  right: '$2',
  display: 'inline-flex',
  padding: '$1',
  borderRadius: '$1',
  color: '$textMuted',
  cursor: 'pointer',
  '&:hover': { color: '$text' },
  '&:focus-visible': { boxShadow: '$focus' },
});

/** What ties a control to its label and error message. */
interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The label, invalid state and error message every field shares, around its control. */
function LabelledField({
  label,
  error,
  describedBy,
  children,
}: {
  label: ReactNode;
  error?: string;
  /** The caller's own `aria-describedby` (a hint, say): kept, with the error after it. */
  describedBy: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const descriptions = [describedBy, error ? `${id}-error` : undefined].filter(Boolean);
  return (
    <Field>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': descriptions.length > 0 ? descriptions.join(' ') : undefined,
      })}
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </Field>
  );
}

/** Props of {@link TextField}. */
export interface TextFieldProps extends Omit<ComponentPropsWithoutRef<'input'>, 'id'> {
  /** The visible label, also the field's accessible name. */
  label: ReactNode;
  /** A message about the value; marks the field invalid. */
  error?: string;
}

/** A labelled text input with an optional error message. */
export const TextField = /* @__PURE__ */ forwardRef<HTMLInputElement, TextFieldProps>(
  function TextField({ label, error, 'aria-describedby': describedBy, ...props }, ref) {
    return (
      <LabelledField label={label} error={error} describedBy={describedBy}>
        {(control) => <Input ref={ref} {...control} {...props} />}
      </LabelledField>
    );
  },
);

/** Props of {@link PasswordField}. */
export type PasswordFieldProps = Omit<TextFieldProps, 'type'> & {
  /** Names of the reveal toggle; default "Show password" / "Hide password". */
  revealLabels?: { show: string; hide: string };
};

const REVEAL_LABELS = { show: 'Show password', hide: 'Hide password' };

/** A password input, masked until its reveal toggle is pressed. */
export const PasswordField = /* @__PURE__ */ forwardRef<HTMLInputElement, PasswordFieldProps>(
  function PasswordField(
    {
      label,
      error,
      'aria-describedby': describedBy,
      placeholder = MASKED_PLACEHOLDER,
      revealLabels = REVEAL_LABELS,
      ...props
    },
    ref,
  ) {
    const [revealed, setRevealed] = useState(false);
    return (
      <LabelledField label={label} error={error} describedBy={describedBy}>
        {(control) => (
          <InputRow>
            <Input
              ref={ref}
              type={revealed ? 'text' : 'password'}
              placeholder={placeholder}
              withAction
              {...control}
              {...props}
            />
            <Reveal
              type="button"
              aria-label={revealed ? revealLabels.hide : revealLabels.show}
              aria-pressed={revealed}
              onClick={() => setRevealed((value) => !value)}
            >
              {revealed ? <EyeOffIcon /> : <EyeIcon />}
            </Reveal>
          </InputRow>
        )}
      </LabelledField>
    );
  },
);

const Area = /* @__PURE__ */ styled('textarea', {
  all: 'unset',
  boxSizing: 'border-box',
  width: '100%',
  minHeight: '96px',
  padding: '$2 $3',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$3',
  lineHeight: '$body',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fieldSizing: 'content',
  maxHeight: '320px',
  overflowY: 'auto',
  '&::placeholder': { color: '$textMuted' },
  '&:focus-visible': { borderColor: '$accent', boxShadow: '$focus' },
  '&[aria-invalid="true"]': { borderColor: '$danger' },
});

/** Props of {@link TextArea}. */
export interface TextAreaProps extends Omit<ComponentPropsWithoutRef<'textarea'>, 'id'> {
  /** The visible label, also the field's accessible name. */
  label: ReactNode;
  /** A message about the value; marks the field invalid. */
  error?: string;
}

/** A labelled multi-line input that grows with its text, with an optional error message. */
export const TextArea = /* @__PURE__ */ forwardRef<HTMLTextAreaElement, TextAreaProps>(
  function TextArea({ label, error, 'aria-describedby': describedBy, ...props }, ref) {
    return (
      <LabelledField label={label} error={error} describedBy={describedBy}>
        {(control) => <Area ref={ref} {...control} {...props} />}
      </LabelledField>
    );
  },
);
