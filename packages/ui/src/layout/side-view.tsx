'use client';

import type { MouseEvent, ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { keyframes, styled } from '../theme/stitches.config';
import { IconButton } from '../controls/button';
import { CloseIcon } from '../controls/icons';
import { DIALOG_TRANSITION_MS, ModalOverlay } from '../feedback/overlay';
import { useReturnFocus } from '../feedback/return-focus';
import { escapeLeftByNotices, MODAL_MARK } from '../feedback/escape-under-notices';
import { usePortalClassName } from '../theme/theme-context';

/** Width of the side column on wide screens, in pixels. */
const SIDE_WIDTH = 300;

const Columns = /* @__PURE__ */ styled('div', {
  display: 'block',
  '@bp3': {
    display: 'grid',
    gridTemplateColumns: `${SIDE_WIDTH}px minmax(0, 1fr)`,
    gap: '$5',
    alignItems: 'start',
  },
});
// Beside the main content on wide screens, staying in view while the main content scrolls;
// on narrow screens it lives in the drawer instead.
const Side = /* @__PURE__ */ styled('nav', {
  display: 'none',
  '@bp3': {
    display: 'block',
    position: 'sticky',
    top: 0,
    maxHeight: '100dvh',
    overflowY: 'auto',
    overscrollBehavior: 'contain',
    paddingBlock: '$3',
    paddingRight: '$3',
    borderRight: '1px solid $border',
    scrollbarWidth: 'thin',
  },
});
const Main = /* @__PURE__ */ styled('div', { minWidth: 0 });

const slideIn = /* @__PURE__ */ keyframes({
  from: { transform: 'translateX(-100%)' },
  to: { transform: 'translateX(0)' },
});
const slideOut = /* @__PURE__ */ keyframes({
  from: { transform: 'translateX(0)' },
  to: { transform: 'translateX(-100%)' },
});
const Drawer = /* @__PURE__ */ styled(RadixDialog.Content, {
  position: 'fixed',
  zIndex: 100,
  top: 0,
  bottom: 0,
  left: 0,
  width: `min(85vw, ${SIDE_WIDTH + 40}px)`,
  overflowY: 'auto',
  padding: '$4',
  backgroundColor: '$surface',
  color: '$text',
  boxShadow: '$raised',
  '&[data-state="open"]': { animation: `${slideIn} ${DIALOG_TRANSITION_MS}ms ease-out` },
  '&[data-state="closed"]': { animation: `${slideOut} ${DIALOG_TRANSITION_MS}ms ease-in` },
  '@reducedMotion': { animation: 'none !important' },
});
const DrawerTitle = /* @__PURE__ */ styled(RadixDialog.Title, {
  margin: 0,
  marginBottom: '$3',
  fontSize: '$4',
  fontWeight: '$bold',
  lineHeight: '$tight',
  paddingRight: '$6',
});
const CloseCorner = /* @__PURE__ */ styled('div', { position: 'absolute', top: '$3', right: '$3' });
const NarrowOnlyBox = /* @__PURE__ */ styled('span', {
  display: 'contents',
  '@bp3': { display: 'none' },
});
const WideOnlyBox = /* @__PURE__ */ styled('div', {
  display: 'none',
  '@bp3': { display: 'contents' },
});

/** Props of {@link SideView}. */
export interface SideViewProps {
  /** What goes beside the main content (a list to move between, such as one's chats). */
  side: ReactNode;
  /** The side's accessible name (a navigation landmark), and the drawer's title. */
  sideLabel: string;
  /** Whether the drawer is open; it is how narrow screens reach the side. */
  drawerOpen: boolean;
  /** Called when the drawer asks to open or close (its close button, Escape, outside). */
  onDrawerOpenChange: (open: boolean) => void;
  /** Name of the drawer's close button; default "Close". */
  closeLabel?: string;
  /** The main content. */
  children: ReactNode;
}

/**
 * The main content with a side column beside it on wide screens (1024 px and up), like a chat
 * app's list of conversations; on narrower screens the side opens as a drawer from the left
 * edge (a modal dialog: focus moves in and back, Escape closes it), opened by a control the
 * page shows there ({@link NarrowOnly}).
 */
export function SideView({
  side,
  sideLabel,
  drawerOpen,
  onDrawerOpenChange,
  closeLabel = 'Close',
  children,
}: SideViewProps) {
  // The drawer is opened by the page's own control, not a Radix trigger.
  const focus = useReturnFocus();
  const portalClassName = usePortalClassName();
  return (
    <Columns>
      <Side aria-label={sideLabel}>{side}</Side>
      <Main>{children}</Main>
      <RadixDialog.Root open={drawerOpen} onOpenChange={onDrawerOpenChange}>
        <RadixDialog.Portal>
          <ModalOverlay className={portalClassName} />
          <Drawer
            className={portalClassName}
            aria-describedby={undefined}
            onOpenAutoFocus={focus.onOpenAutoFocus}
            onCloseAutoFocus={focus.onCloseAutoFocus}
            {...MODAL_MARK}
            onKeyDown={escapeLeftByNotices(undefined, () => onDrawerOpenChange(false))}
          >
            <DrawerTitle>{sideLabel}</DrawerTitle>
            {side}
            <CloseCorner>
              <RadixDialog.Close asChild>
                <IconButton label={closeLabel} icon={<CloseIcon />} size="small" />
              </RadixDialog.Close>
            </CloseCorner>
          </Drawer>
        </RadixDialog.Portal>
      </RadixDialog.Root>
    </Columns>
  );
}

const SideLinkAnchor = /* @__PURE__ */ styled('a', {
  display: 'block',
  padding: '$2',
  borderRadius: '$2',
  color: '$text',
  textDecoration: 'none',
  '&:hover': { backgroundColor: '$surface' },
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
  '&[aria-current="page"]': {
    backgroundColor: '$surface',
    boxShadow: 'inset 3px 0 0 $colors$accent',
  },
});

/** Props of {@link SideLink}. */
export interface SideLinkProps {
  href: string;
  /** Whether it is the page shown now (`aria-current="page"`, marked). */
  current?: boolean;
  /** Called on activation, e.g. to close the drawer it is in. */
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
  children: ReactNode;
}

/** One entry of a {@link SideView}'s list: a whole-row link, the current one marked. */
export function SideLink({ href, current = false, onClick, children }: SideLinkProps) {
  return (
    <SideLinkAnchor href={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </SideLinkAnchor>
  );
}

/** Props of {@link NarrowOnly}. */
export interface NarrowOnlyProps {
  children: ReactNode;
}

/** Shows its children only on screens narrower than {@link SideView}'s side column needs. */
export function NarrowOnly({ children }: NarrowOnlyProps) {
  return <NarrowOnlyBox>{children}</NarrowOnlyBox>;
}

/** Props of {@link WideOnly}. */
export interface WideOnlyProps {
  children: ReactNode;
}

/** Shows its children only where {@link NarrowOnly}'s are hidden: screens of 1024 px and up. */
export function WideOnly({ children }: WideOnlyProps) {
  return <WideOnlyBox>{children}</WideOnlyBox>;
}
