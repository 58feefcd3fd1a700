'use client';

import * as RadixToast from '@radix-ui/react-toast';
import { keyframes, styled } from '../theme/stitches.config';
import { IconButton } from '../controls/button';
import { CloseIcon } from '../controls/icons';
import { leaveEscapeToModal } from './escape-under-notices';

/** How long a top notification stays (docs/product.md, constants). */
export const NOTIFICATION_MS = 3000;

const slideIn = /* @__PURE__ */ keyframes({
  from: { transform: 'translateY(-16px)', opacity: 0 },
  to: { transform: 'translateY(0)', opacity: 1 },
});

const Viewport = /* @__PURE__ */ styled(RadixToast.Viewport, {
  position: 'fixed',
  top: 0,
  left: '50%',
  transform: 'translateX(-50%)',
  display: 'flex',
  flexDirection: 'column',
  gap: '$2',
  width: 'min(calc(100vw - 32px), 420px)',
  margin: 0,
  padding: '$4',
  listStyle: 'none',
  zIndex: 2147483647,
  outline: 'none',
});
const Root = /* @__PURE__ */ styled(RadixToast.Root, {
  display: 'flex',
  alignItems: 'center',
  gap: '$3',
  padding: '$3 $4',
  borderRadius: '$2',
  boxShadow: '$raised',
  fontSize: '$2',
  '&[data-state="open"]': { animation: `${slideIn} 200ms ease-out` },
  '@reducedMotion': { animation: 'none !important' },
  variants: {
    tone: {
      negative: {
        backgroundColor: '$dangerSurface',
        color: '$danger',
        border: '1px solid $danger',
      },
      positive: {
        backgroundColor: '$surfaceRaised',
        color: '$success',
        border: '1px solid $success',
      },
    },
  },
});
const Message = /* @__PURE__ */ styled(RadixToast.Description, { flex: 1, margin: 0 });

/** One notification. */
export interface ToastNotice {
  id: string;
  tone: 'negative' | 'positive';
  message: string;
}

/** Props of {@link Toaster}. */
export interface ToasterProps {
  notices: ToastNotice[];
  /** Called when a notice closes (time up, its close button, a swipe). */
  onDismiss: (id: string) => void;
  /** How long each stays; default 3000 ms (docs/product.md, constants). */
  duration?: number;
  /** The words around the notices, in the page's language; English by default. */
  labels?: ToasterLabels;
}

/** The words of {@link Toaster}. */
export interface ToasterLabels {
  /** What screen readers call the notifications region. */
  region: string;
  /** Each notice's close button. */
  dismiss: string;
}

const ENGLISH: ToasterLabels = { region: 'Notifications', dismiss: 'Dismiss notification' };

/** Top notifications, read out by screen readers as they appear. */
export function Toaster({
  notices,
  onDismiss,
  duration = NOTIFICATION_MS,
  labels = ENGLISH,
}: ToasterProps) {
  return (
    <RadixToast.Provider duration={duration} swipeDirection="up" label={labels.region}>
      {notices.map((notice) => (
        <Root
          key={notice.id}
          tone={notice.tone}
          type={notice.tone === 'negative' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && onDismiss(notice.id)}
          // Escape in an open sheet or dialog closes that, not the notice over it.
          onEscapeKeyDown={leaveEscapeToModal}
        >
          <Message>{notice.message}</Message>
          <RadixToast.Close asChild>
            <IconButton label={labels.dismiss} icon={<CloseIcon />} size="small" />
          </RadixToast.Close>
        </Root>
      ))}
      <Viewport label={`${labels.region} ({hotkey})`} />
    </RadixToast.Provider>
  );
}
