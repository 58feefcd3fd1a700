import { keyframes, styled } from '../theme/stitches.config';

const spin = /* @__PURE__ */ keyframes({ to: { transform: 'rotate(360deg)' } });

const Overlay = /* @__PURE__ */ styled('div', {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '$3',
  borderRadius: 'inherit',
  backgroundColor: '$overlay',
  color: '$text',
  zIndex: 1,
});
const Ring = /* @__PURE__ */ styled('span', {
  size: '28px',
  borderRadius: '$round',
  border: '3px solid $border',
  borderTopColor: '$accent',
  animation: `${spin} 800ms linear infinite`,
  '@reducedMotion': { animationDuration: '2400ms' },
});

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  /** What is loading, for screen readers; default "Loading". */
  label?: string;
}

/** A spinning ring, announced as a status. */
export function Spinner({ label = 'Loading' }: SpinnerProps) {
  return <Ring role="status" aria-label={label} />;
}

/** Props of {@link LoadingOverlay}. */
export interface LoadingOverlayProps {
  /** The text under the spinner; default "Please wait..." (docs/product.md, routes). */
  text?: string;
}

/** Covers its positioned parent while something is being done: "Please wait...". */
export function LoadingOverlay({ text = 'Please wait...' }: LoadingOverlayProps) {
  return (
    <Overlay role="status" aria-live="polite">
      <Ring aria-hidden="true" />
      <span>{text}</span>
    </Overlay>
  );
}
