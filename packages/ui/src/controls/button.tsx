import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';

const StyledButton = /* @__PURE__ */ styled('button', {
  all: 'unset',
  boxSizing: 'border-box',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '$2',
  borderRadius: '$2',
  fontFamily: '$body',
  fontWeight: '$medium',
  cursor: 'pointer',
  userSelect: 'none',
  transition: 'background-color 150ms, color 150ms',
  '&:focus-visible': { boxShadow: '$focus' },
  // `aria-disabled` looks the same: a button that keeps its focus while it cannot act.
  '&:disabled, &[aria-disabled="true"]': { opacity: 0.5, cursor: 'not-allowed' },
  variants: {
    variant: {
      solid: {
        backgroundColor: '$accent',
        color: '$onAccent',
        '&:hover:not(:disabled):not([aria-disabled="true"])': { backgroundColor: '$accentStrong' },
      },
      soft: {
        backgroundColor: '$surfaceRaised',
        color: '$text',
        '&:hover:not(:disabled):not([aria-disabled="true"])': { backgroundColor: '$border' },
      },
      ghost: {
        backgroundColor: 'transparent',
        color: '$text',
        '&:hover:not(:disabled):not([aria-disabled="true"])': { backgroundColor: '$surfaceRaised' },
      },
      danger: {
        backgroundColor: '$dangerSurface',
        color: '$danger',
        '&:hover:not(:disabled):not([aria-disabled="true"])': { backgroundColor: '$border' },
      },
    },
    size: {
      small: { height: '32px', px: '$3', fontSize: '$2' },
      medium: { height: '$field', px: '$4', fontSize: '$3' },
    },
    block: { true: { width: '100%' } },
    round: { true: { borderRadius: '$round', padding: 0 } },
  },
  compoundVariants: [
    { size: 'small', round: true, css: { width: '32px' } },
    { size: 'medium', round: true, css: { width: '$field' } },
  ],
  defaultVariants: { variant: 'solid', size: 'medium' },
});

/** Props of {@link Button}. */
export interface ButtonProps extends ComponentPropsWithoutRef<'button'> {
  /**
   * How much it stands out: `solid` for the main action of a view (one per view), `soft` or
   * `ghost` for the others, `danger` for an action that deletes.
   * @defaultValue 'solid'
   */
  variant?: 'solid' | 'soft' | 'ghost' | 'danger';
  /**
   * `medium` is 44 px high, a finger's size; `small` (32 px) is for dense rows beside text.
   * @defaultValue 'medium'
   */
  size?: 'small' | 'medium';
  /**
   * Dimmed, out of the tab order, and a click does nothing. To keep it focusable and say why it
   * cannot act yet, set `aria-disabled` instead (it looks the same).
   * @defaultValue false
   */
  disabled?: boolean;
  /**
   * Full width.
   * @defaultValue false
   */
  block?: boolean;
  /** The label: a verb for what it does ("Send", "Delete chat"). */
  children: ReactNode;
}

/** A button; `type="button"` unless said otherwise, so it never submits a form by accident. */
export const Button = /* @__PURE__ */ forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { block, type = 'button', ...props },
  ref,
) {
  return <StyledButton ref={ref} type={type} block={block ? true : undefined} {...props} />;
});

/** Props of {@link IconButton}: the label is required, since the icon says nothing to a screen reader. */
export interface IconButtonProps extends Omit<
  ComponentPropsWithoutRef<'button'>,
  'aria-label' | 'children'
> {
  /** What the button does, for screen readers and the tooltip. */
  label: string;
  /** The icon (decorative). */
  icon: ReactNode;
  /**
   * As {@link ButtonProps.variant}; icon buttons are mostly secondary, so `ghost` by default.
   * @defaultValue 'ghost'
   */
  variant?: 'solid' | 'soft' | 'ghost' | 'danger';
  /**
   * `medium` (44 px round) or `small` (32 px round).
   * @defaultValue 'medium'
   */
  size?: 'small' | 'medium';
}

/** A round button showing only an icon, named by `label`. */
export const IconButton = /* @__PURE__ */ forwardRef<HTMLButtonElement, IconButtonProps>(
  function IconButton({ label, icon, type = 'button', variant = 'ghost', ...props }, ref) {
    return (
      <StyledButton
        ref={ref}
        type={type}
        aria-label={label}
        title={label}
        variant={variant}
        round
        {...props}
      >
        <span aria-hidden="true" style={{ display: 'inline-flex' }}>
          {icon}
        </span>
      </StyledButton>
    );
  },
);

const StyledButtonLink = /* @__PURE__ */ styled(StyledButton, {
  textDecoration: 'none',
  boxSizing: 'border-box',
});

/** Props of {@link ButtonLink}. */
export interface ButtonLinkProps extends ComponentPropsWithoutRef<'a'> {
  /**
   * solid for the main action, soft or ghost for the rest.
   * @defaultValue 'solid'
   */
  variant?: 'solid' | 'soft' | 'ghost' | 'danger';
  /**
   * As {@link ButtonProps.size}.
   * @defaultValue 'medium'
   */
  size?: 'small' | 'medium';
  /**
   * Full width.
   * @defaultValue false
   */
  block?: boolean;
  href: string;
  children: ReactNode;
}

/** A link that looks like a button: for actions that go somewhere (one focus stop, role link). */
export const ButtonLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, ButtonLinkProps>(
  function ButtonLink({ block, ...props }, ref) {
    return (
      <StyledButtonLink
        as="a"
        ref={ref as never}
        block={block ? true : undefined}
        {...(props as object)}
      />
    );
  },
);
