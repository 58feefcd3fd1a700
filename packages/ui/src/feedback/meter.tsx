import { styled } from '../theme/stitches.config';

const Track = /* @__PURE__ */ styled('div', {
  position: 'relative',
  width: '100%',
  height: '6px',
  borderRadius: '$round',
  backgroundColor: '$surfaceRaised',
  overflow: 'hidden',
});
const Fill = /* @__PURE__ */ styled('div', {
  position: 'absolute',
  insetBlock: 0,
  insetInlineStart: 0,
  borderRadius: '$round',
  backgroundColor: '$accent',
  variants: { tone: { accent: {}, danger: { backgroundColor: '$danger' } } },
});

/** Props of {@link Meter}. */
export interface MeterProps {
  /** The share shown, from 0 to 1 (clamped). */
  value: number;
  /** Its accessible name ("Character: share of the context"). */
  label: string;
  /** What a screen reader says for the value ("12%"); default the rounded percentage. */
  valueText?: string;
  /** `danger` when the share is too much (a context nearly full); default `accent`. */
  tone?: 'accent' | 'danger';
}

/** A thin bar showing a share of a whole (a part of a prompt in its context), named for screen readers. */
export function Meter({ value, label, valueText, tone = 'accent' }: MeterProps) {
  const share = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  const percent = Math.round(share * 100);
  return (
    <Track
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText ?? `${percent}%`}
    >
      {/* A share above zero stays visible, however small. */}
      <Fill tone={tone} style={{ width: share > 0 ? `max(2px, ${share * 100}%)` : 0 }} />
    </Track>
  );
}
