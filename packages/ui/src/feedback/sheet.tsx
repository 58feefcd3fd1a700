'use client';

import type { ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { keyframes, styled } from '../theme/stitches.config';
import { IconButton } from '../controls/button';
import { CloseIcon } from '../controls/icons';
import { useReturnFocus } from './return-focus';
import { usePortalClassName } from '../theme/theme-context';
import { DIALOG_TRANSITION_MS, ModalOverlay } from './overlay';
import { escapeLeftByNotices, MODAL_MARK } from './escape-under-notices';

const slideIn = /* @__PURE__ */ keyframes({
  from: { transform: 'translateX(100%)' },
  to: { transform: 'translateX(0)' },
});
const slideOut = /* @__PURE__ */ keyframes({
  from: { transform: 'translateX(0)' },
  to: { transform: 'translateX(100%)' },
});

// The whole screen on a phone; from a tablet up, a column on the right edge over the page.
const Content = /* @__PURE__ */ styled(RadixDialog.Content, {
  position: 'fixed',
  zIndex: 100,
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  backgroundColor: '$surface',
  color: '$text',
  boxShadow: '$raised',
  '@bp2': { left: 'auto', width: 'min(100vw, var(--sheet-width))' },
  '&[data-state="open"]': { animation: `${slideIn} ${DIALOG_TRANSITION_MS}ms ease-out` },
  '&[data-state="closed"]': { animation: `${slideOut} ${DIALOG_TRANSITION_MS}ms ease-in` },
  '@reducedMotion': { animation: 'none !important' },
});
const Top = /* @__PURE__ */ styled('div', {
  padding: '$4',
  paddingRight: '$7',
  borderBottom: '1px solid $border',
});
// Last in the sheet, so that focus first goes to its content; drawn in the top corner.
const CloseCorner = /* @__PURE__ */ styled('div', { position: 'absolute', top: '$3', right: '$3' });
const Title = /* @__PURE__ */ styled(RadixDialog.Title, {
  margin: 0,
  fontSize: '$5',
  fontWeight: '$bold',
  lineHeight: '$tight',
});
const Description = /* @__PURE__ */ styled(RadixDialog.Description, {
  margin: 0,
  marginTop: '$1',
  fontSize: '$2',
  color: '$textMuted',
});
// Only the body scrolls: the title and its close button stay in view.
const Body = /* @__PURE__ */ styled('div', {
  flex: 1,
  minHeight: 0,
  overflowY: 'auto',
  overscrollBehavior: 'contain',
  padding: '$4',
});

/** Props of {@link Sheet}. */
export interface SheetProps {
  open: boolean;
  /** Called when the sheet asks to close (close button, Escape, a click outside). */
  onOpenChange: (open: boolean) => void;
  /** The sheet's title: its accessible name. */
  title: ReactNode;
  /** A sentence under the title: its accessible description. */
  description?: ReactNode;
  /** Width in pixels from a tablet up; default 440. A phone gives it the whole screen. */
  width?: number;
  /** Name of the close button; default "Close". */
  closeLabel?: string;
  /**
   * Called as the sheet opens, before focus moves in (by default to its first control, links
   * left out): call `event.preventDefault()` and focus something else instead, such as the
   * entry that is open now rather than a destructive button. `event.currentTarget` is the
   * sheet, which can take the focus itself (its title is its name).
   */
  onOpenAutoFocus?: (event: Event) => void;
  /**
   * Called once the sheet has closed, before focus goes back to what opened it: call
   * `event.preventDefault()` to send it elsewhere (what a link in the sheet led to).
   */
  onCloseAutoFocus?: (event: Event) => void;
  /**
   * Called on Escape, before the sheet closes: `event.preventDefault()` keeps it open (a field
   * in it that answers Escape itself, such as an inline editor that Escape cancels).
   */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  children?: ReactNode;
}

/**
 * A side sheet: a modal panel that slides in from the right edge over the page (the whole
 * screen on a phone), its title and close button fixed on top and its body scrolling. Focus
 * moves in, stays inside while open and returns to what opened it.
 */
export function Sheet({
  open,
  onOpenChange,
  title,
  description,
  width = 440,
  closeLabel = 'Close',
  onOpenAutoFocus,
  onCloseAutoFocus,
  onEscapeKeyDown,
  children,
}: SheetProps) {
  // Opened by the page's own control, not a Radix trigger.
  const focus = useReturnFocus();
  const portalClassName = usePortalClassName();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <ModalOverlay className={portalClassName} />
        <Content
          className={portalClassName}
          style={{ ['--sheet-width' as string]: `${width}px` }}
          onOpenAutoFocus={(event) => {
            focus.onOpenAutoFocus();
            onOpenAutoFocus?.(event);
          }}
          onEscapeKeyDown={onEscapeKeyDown}
          {...MODAL_MARK}
          onKeyDown={escapeLeftByNotices(onEscapeKeyDown, () => onOpenChange(false))}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event);
            if (!event.defaultPrevented) focus.onCloseAutoFocus(event);
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Top>
            <Title>{title}</Title>
            {description && <Description>{description}</Description>}
          </Top>
          <Body>{children}</Body>
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
