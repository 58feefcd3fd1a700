import { Button } from '../controls/button';
import { styled } from '../theme/stitches.config';

const Row = /* @__PURE__ */ styled('div', {
  display: 'flex',
  justifyContent: 'center',
  gap: '$4',
  padding: '$4',
  flexWrap: 'wrap',
});

const icon = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
};
const MicIcon = ({ off }: { off: boolean }) => (
  <svg {...icon}>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
    {off && <path d="M3 3l18 18" />}
  </svg>
);
const HangUpIcon = () => (
  <svg {...icon}>
    <path d="M3 15c5-5 13-5 18 0l-2.5 2.5-3.5-1.5v-3a9 9 0 0 0-6 0v3l-3.5 1.5Z" />
  </svg>
);

/** Words the controls use, in the app's language. */
export interface CallControlsLabels {
  /** The mute button, e.g. "Mute" (a toggle: pressed while muted). */
  mute: string;
  /** The hang-up button, e.g. "Hang up". */
  hangUp: string;
}

/** Props of {@link CallControls}. */
export interface CallControlsProps {
  /** The microphone is muted (the toggle is pressed). */
  muted: boolean;
  /** The person pressed Mute (`true`) or pressed it again to unmute (`false`). */
  onMutedChange: (muted: boolean) => void;
  /** The person hung up. */
  onHangUp: () => void;
  /** Mute cannot act yet (the call is connecting) or any more (it ended). */
  muteDisabled?: boolean;
  /** Words, in the app's language. */
  labels: CallControlsLabels;
}

/**
 * A call's buttons: Mute, a toggle (`aria-pressed`), and Hang up. Both are buttons with their
 * words visible, reachable by keyboard in that order.
 */
export function CallControls({
  muted,
  onMutedChange,
  onHangUp,
  muteDisabled = false,
  labels,
}: CallControlsProps) {
  return (
    <Row>
      <Button
        variant="soft"
        aria-pressed={muted}
        disabled={muteDisabled}
        onClick={() => onMutedChange(!muted)}
      >
        <MicIcon off={muted} />
        {labels.mute}
      </Button>
      <Button variant="danger" onClick={onHangUp}>
        <HangUpIcon />
        {labels.hangUp}
      </Button>
    </Row>
  );
}
