import * as RadixDialog from '@radix-ui/react-dialog';
import { keyframes, styled } from '../theme/stitches.config';

/** Dialog timings (docs/product.md, constants). */
export const DIALOG_TRANSITION_MS = 300;

const fadeIn = /* @__PURE__ */ keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });
const fadeOut = /* @__PURE__ */ keyframes({ from: { opacity: 1 }, to: { opacity: 0 } });

/**
 * The dimmed layer behind a modal (a dialog, the side drawer): above the page's own layers
 * (the sticky header is 10), fading in and out with the modal.
 */
export const ModalOverlay = /* @__PURE__ */ styled(RadixDialog.Overlay, {
  position: 'fixed',
  inset: 0,
  zIndex: 100,
  backgroundColor: '$overlay',
  '&[data-state="open"]': { animation: `${fadeIn} ${DIALOG_TRANSITION_MS}ms ease-out` },
  '&[data-state="closed"]': { animation: `${fadeOut} ${DIALOG_TRANSITION_MS}ms ease-in` },
  '@reducedMotion': { animation: 'none !important' },
});
