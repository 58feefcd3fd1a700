'use client';

import { useState, type ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { keyframes, styled } from '../theme/stitches.config';
import { IconButton } from '../controls/button';
import { CloseIcon } from '../controls/icons';
import { useReturnFocus } from './return-focus';
import { usePortalClassName } from '../theme/theme-context';
import { DIALOG_TRANSITION_MS, ModalOverlay } from './overlay';
import { escapeLeftByNotices, MODAL_MARK } from './escape-under-notices';

export { DIALOG_TRANSITION_MS } from './overlay';
/** How long a dialog that must not close shakes when Escape is pressed (docs/product.md, constants). */
export const ESCAPE_SHAKE_MS = 170;

const rise = /* @__PURE__ */ keyframes({
  from: { opacity: 0, transform: 'translate(-50%, -46%) scale(0.97)' },
  to: { opacity: 1, transform: 'translate(-50%, -50%) scale(1)' },
});
const sink = /* @__PURE__ */ keyframes({
  from: { opacity: 1, transform: 'translate(-50%, -50%) scale(1)' },
  to: { opacity: 0, transform: 'translate(-50%, -46%) scale(0.97)' },
});
const shake = /* @__PURE__ */ keyframes({
  '0%, 100%': { transform: 'translateX(0)' },
  '25%': { transform: 'translateX(-8px)' },
  '75%': { transform: 'translateX(8px)' },
});

const Content = /* @__PURE__ */ styled(RadixDialog.Content, {
  position: 'fixed',
  zIndex: 100,
  top: '50%',
  left: '50%',
  transform: 'translate(-50%, -50%)',
  width: 'min(calc(100vw - 32px), var(--dialog-width))',
  maxHeight: 'calc(100vh - 32px)',
  overflowY: 'auto',
  padding: '$5',
  borderRadius: '$3',
  backgroundColor: '$surface',
  color: '$text',
  boxShadow: '$raised',
  '&[data-state="open"]': { animation: `${rise} ${DIALOG_TRANSITION_MS}ms ease-out` },
  '&[data-state="closed"]': { animation: `${sink} ${DIALOG_TRANSITION_MS}ms ease-in` },
  '@reducedMotion': { animation: 'none !important' },
});
// The shake moves the content inside, so that the dialog's own open animation never restarts.
const Shaker = /* @__PURE__ */ styled('div', {
  '&[data-shaking="true"]': { animation: `${shake} ${ESCAPE_SHAKE_MS}ms ease-in-out` },
  '@reducedMotion': { animation: 'none !important' },
});
const Title = /* @__PURE__ */ styled(RadixDialog.Title, {
  margin: 0,
  fontSize: '$5',
  fontWeight: '$bold',
  lineHeight: '$tight',
  paddingRight: '$6',
});
const Description = /* @__PURE__ */ styled(RadixDialog.Description, {
  margin: 0,
  marginTop: '$2',
  color: '$textMuted',
});
const CloseCorner = /* @__PURE__ */ styled('div', { position: 'absolute', top: '$3', right: '$3' });

/** Props of {@link Dialog}. */
export interface DialogProps {
  open: boolean;
  /** Called when the dialog asks to close (close button, Escape, a click outside). */
  onOpenChange: (open: boolean) => void;
  /** The dialog's title: its accessible name. */
  title: ReactNode;
  /** A sentence under the title: its accessible description. */
  description?: ReactNode;
  /** Width in pixels; default 500 (docs/product.md, constants). */
  width?: number;
  /**
   * `false` for a dialog that must not be dismissed by Escape or a click outside: Escape
   * shakes it instead. The close button still closes it. Default `true`.
   */
  dismissible?: boolean;
  /** Name of the close button; default "Close". */
  closeLabel?: string;
  children?: ReactNode;
}

/**
 * A modal dialog on Radix: focus moves in and is trapped while open and returns to where it
 * was on close; it opens and closes over 300 ms.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  width = 500,
  dismissible = true,
  closeLabel = 'Close',
  children,
}: DialogProps) {
  const [shaking, setShaking] = useState(false);
  // Radix returns focus to its own Trigger; a dialog opened by any other control would
  // leave focus on <body>. Remember what had focus, and give it back.
  const focus = useReturnFocus();
  const portalClassName = usePortalClassName();
  const refuse = (event: Event) => {
    event.preventDefault();
    setShaking(true);
    window.setTimeout(() => setShaking(false), ESCAPE_SHAKE_MS);
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <ModalOverlay className={portalClassName} />
        <Content
          className={portalClassName}
          style={{ ['--dialog-width' as string]: `${width}px` }}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          onEscapeKeyDown={dismissible ? undefined : refuse}
          {...MODAL_MARK}
          onKeyDown={escapeLeftByNotices(dismissible ? undefined : refuse, () =>
            onOpenChange(false),
          )}
          onPointerDownOutside={dismissible ? undefined : (event) => event.preventDefault()}
          // Radix links the description itself; without one, say so rather than warn.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Shaker data-shaking={shaking ? 'true' : undefined} data-testid="dialog-shaker">
            <Title>{title}</Title>
            {description && <Description>{description}</Description>}
            {children}
          </Shaker>
          <CloseCorner>
            <RadixDialog.Close asChild>
              <IconButton label={closeLabel} icon={<CloseIcon />} size="small" />
            </RadixDialog.Close>
          </CloseCorner>
        </Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
