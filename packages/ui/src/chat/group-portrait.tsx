import { styled } from '../theme/stitches.config';
import { Avatar } from '../catalog/avatar';

/** The most portraits a group portrait draws; the rest are counted ("+2"). */
const MOST_SHOWN = 6;

const Row = /* @__PURE__ */ styled('span', {
  display: 'inline-flex',
  alignItems: 'center',
  flexShrink: 0,
  // Each portrait after the first tucks under the one before, ringed in the page's colour so
  // the edges stay apart.
  '& > span': { boxShadow: '0 0 0 2px $colors$bg' },
  variants: {
    size: {
      small: { '& > span + span': { marginLeft: '-12px' } },
      medium: { '& > span + span': { marginLeft: '-16px' } },
      large: { '& > span + span': { marginLeft: '-26px' } },
    },
  },
  defaultVariants: { size: 'medium' },
});
const More = /* @__PURE__ */ styled('span', {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  borderRadius: '$round',
  backgroundColor: '$surfaceRaised',
  color: '$textMuted',
  fontSize: '$1',
  fontWeight: '$bold',
  variants: {
    size: {
      small: { size: '32px' },
      medium: { size: '44px' },
      large: { size: '72px', fontSize: '$3' },
    },
  },
  defaultVariants: { size: 'medium' },
});

/** Props of {@link GroupPortrait}. */
export interface GroupPortraitProps {
  /** The group's mates, in the list's order: each one's name and portrait URL (or `null`). */
  members: readonly { name: string; src: string | null }[];
  /** What a screen reader says for the whole portrait, e.g. "Tavern: Lyra, Kai and Noor". */
  label: string;
  size?: 'small' | 'medium' | 'large';
}

/**
 * A group chat's portrait: its mates' portraits overlapping in a row (six at most, the rest
 * counted), one image named by `label` for screen readers.
 */
export function GroupPortrait({ members, label, size = 'medium' }: GroupPortraitProps) {
  const shown = members.slice(0, MOST_SHOWN);
  const hidden = members.length - shown.length;
  return (
    <Row role="img" aria-label={label} size={size}>
      {shown.map((member, index) => (
        <Avatar key={index} src={member.src} name={member.name} size={size} decorative />
      ))}
      {hidden > 0 && (
        <More size={size} aria-hidden="true">
          +{hidden}
        </More>
      )}
    </Row>
  );
}
