import { keyframes, styled } from '../theme/stitches.config';

const ring = /* @__PURE__ */ keyframes({
  '0%, 100%': { outlineOffset: '2px' },
  '50%': { outlineOffset: '10px' },
});

const Stage = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '$4',
  padding: '$5',
  textAlign: 'center',
});
const Portrait = /* @__PURE__ */ styled('div', {
  size: 'min(180px, 42vw)',
  borderRadius: '$round',
  overflow: 'hidden',
  backgroundColor: '$surfaceRaised',
  color: '$text',
  display: 'grid',
  placeItems: 'center',
  fontSize: '$6',
  fontWeight: '$medium',
  outline: '4px solid transparent',
  outlineOffset: '4px',
  transition: 'outline-color 150ms',
  '& img': { size: '100%', objectFit: 'cover' },
  variants: {
    speaking: {
      true: {
        outlineColor: '$accent',
        animation: `${ring} 1.2s ease-out infinite`,
        '@reducedMotion': { animation: 'none' },
      },
    },
  },
});
const Name = /* @__PURE__ */ styled('h2', {
  margin: 0,
  fontSize: '$5',
  fontWeight: '$medium',
  color: '$text',
});
const Status = /* @__PURE__ */ styled('p', { margin: 0, fontSize: '$3', color: '$textMuted' });
const Badges = /* @__PURE__ */ styled('div', {
  display: 'flex',
  gap: '$2',
  minHeight: '28px',
  alignItems: 'center',
});
const Badge = /* @__PURE__ */ styled('span', {
  display: 'inline-flex',
  alignItems: 'center',
  gap: '$1',
  px: '$3',
  height: '28px',
  borderRadius: '$round',
  fontSize: '$2',
  fontWeight: '$medium',
  backgroundColor: '$surfaceRaised',
  color: '$text',
  variants: {
    live: {
      true: {
        outline: '2px solid $accent',
        outlineOffset: '2px',
        animation: `${ring} 1.2s ease-out infinite`,
        '@reducedMotion': { animation: 'none' },
      },
    },
    tone: { danger: { backgroundColor: '$dangerSurface', color: '$danger' } },
  },
});

/** Who is speaking in a call, for {@link CallStage}'s ring. */
export type CallSpeaker = 'mate' | 'person' | 'none';

/** Words the stage shows, in the app's language. */
export interface CallStageLabels {
  /** The badge while the person speaks, e.g. "You're speaking". */
  personSpeaking: string;
  /** The badge while the microphone is muted, e.g. "Muted". */
  muted: string;
}

/** Props of {@link CallStage}. */
export interface CallStageProps {
  /** The mate's name, or in a group the member speaking (the group's name otherwise). */
  name: string;
  /** The portrait's URL, or `null` for the initials. */
  src: string | null;
  /** Who is speaking: a ring pulses on the portrait (the mate) or the person's badge. */
  speaking: CallSpeaker;
  /** Where the call stands, in words: "Connecting…", "Listening", "Thinking…". */
  status: string;
  /** The microphone is muted: a "Muted" badge. */
  muted?: boolean;
  /** Words, in the app's language. */
  labels: CallStageLabels;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

/**
 * The call screen's centre: the mate's portrait, large, ringed while it speaks; its name (a
 * heading); where the call stands; and badges for the person speaking and a muted microphone.
 * The portrait is decorative (the name is text); the pulse stops for reduced motion.
 */
export function CallStage({ name, src, speaking, status, muted = false, labels }: CallStageProps) {
  return (
    <Stage>
      <Portrait speaking={speaking === 'mate' ? true : undefined} aria-hidden="true">
        {src ? <img src={src} alt="" /> : initials(name)}
      </Portrait>
      <Name>{name}</Name>
      <Status>{status}</Status>
      <Badges>
        {speaking === 'person' && <Badge live>{labels.personSpeaking}</Badge>}
        {muted && <Badge tone="danger">{labels.muted}</Badge>}
      </Badges>
    </Stage>
  );
}
