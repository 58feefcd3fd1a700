import { styled } from '../theme/stitches.config';
import { Avatar } from '../catalog/avatar';

const Label = /* @__PURE__ */ styled('p', {
  display: 'flex',
  alignItems: 'center',
  gap: '$1',
  margin: 0,
  fontSize: '$2',
  fontWeight: '$medium',
  color: '$text',
  lineHeight: '$tight',
  // The portrait is smaller than the kit's smallest avatar: a label, not a face to look at.
  '& > span:first-child': { size: '20px', fontSize: '9px' },
});
const Note = /* @__PURE__ */ styled('span', {
  fontSize: '$1',
  fontWeight: '$regular',
  color: '$textMuted',
});

/** Props of {@link SpeakerLabel}. */
export interface SpeakerLabelProps {
  /** The speaker's name. */
  name: string;
  /** Its portrait's URL, or `null` for its initials. */
  src: string | null;
  /** A word after the name, in muted text: "left the group", "muted", "writing…". */
  note?: string;
}

/**
 * Who wrote a reply in a group chat: a small portrait and the name, over the mate's bubble
 * (pass it as {@link ChatBubbleProps.label}). The portrait is decorative; the name is text.
 */
export function SpeakerLabel({ name, src, note }: SpeakerLabelProps) {
  return (
    <Label>
      <Avatar src={src} name={name} size="small" decorative />
      <span>{name}</span>
      {note && <Note>· {note}</Note>}
    </Label>
  );
}
