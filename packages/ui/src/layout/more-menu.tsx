'use client';

import { useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { IconButton } from '../controls/button';

const Anchor = /* @__PURE__ */ styled('div', { position: 'relative', display: 'inline-flex' });
const Panel = /* @__PURE__ */ styled('div', {
  position: 'absolute',
  top: 'calc(100% + $space$1)',
  insetInlineEnd: 0,
  // Above docked bars (5), with the popovers (20); dialogs (100) opened from it go above.
  zIndex: 20,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: '$3',
  minWidth: '240px',
  maxWidth: 'calc(100vw - $space$5)',
  padding: '$3',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surfaceRaised',
  boxShadow: '$raised',
});

const DotsIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <circle cx="5" cy="12" r="2" />
    <circle cx="12" cy="12" r="2" />
    <circle cx="19" cy="12" r="2" />
  </svg>
);

/** Props of {@link MoreMenu}. */
export interface MoreMenuProps {
  /** The button's name, and the panel's (e.g. "More"). */
  label: string;
  /** The controls it holds: buttons, links, switches. */
  children: ReactNode;
}

/**
 * A "more" button that shows a panel of further controls, for a compact bar on a phone (a
 * disclosure: the panel may hold switches, which a menu could not). Escape or a press outside
 * closes it, Escape giving the focus back to the button; pressing a button or link in it (not
 * a switch) closes it too, the focus going back to the button if it was on the control pressed
 * (so that a dialog the control opens gives it back there).
 */
export function MoreMenu({ label, children }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  useEffect(() => {
    if (!open) return;
    const doc = anchor.current?.ownerDocument ?? document;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!anchor.current?.contains(event.target as Node)) setOpen(false);
    };
    doc.addEventListener('keydown', onKey);
    doc.addEventListener('pointerdown', onPointer);
    return () => {
      doc.removeEventListener('keydown', onKey);
      doc.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  // A chosen action closes the panel; a switch stays, to be seen changed. The focus goes back
  // to the button before the panel goes, with the control pressed: a dialog the action opens
  // then gives it back there when it closes (else it would fall to the page).
  const chosen = (event: MouseEvent<HTMLDivElement>) => {
    const control = (event.target as HTMLElement).closest('a, button');
    if (!control || control.getAttribute('role') === 'switch') return;
    if (control === control.ownerDocument.activeElement) button.current?.focus();
    setOpen(false);
  };
  return (
    <Anchor ref={anchor}>
      <IconButton
        ref={button}
        label={label}
        icon={<DotsIcon />}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((was) => !was)}
      />
      {open && (
        <Panel id={panelId} role="group" aria-label={label} onClick={chosen}>
          {children}
        </Panel>
      )}
    </Anchor>
  );
}
