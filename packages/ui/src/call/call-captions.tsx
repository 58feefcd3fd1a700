import { styled } from '../theme/stitches.config';

const Log = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$2',
  width: 'min(560px, 100%)',
  maxHeight: '30vh',
  overflowY: 'auto',
  padding: '$3',
  borderRadius: '$3',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$3',
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
  lineHeight: '$body',
});
const Line = /* @__PURE__ */ styled('p', {
  margin: 0,
  variants: { who: { person: { color: '$textMuted' }, mate: {} } },
});
const Who = /* @__PURE__ */ styled('span', { fontWeight: '$medium', color: '$text' });
const Cut = /* @__PURE__ */ styled('span', {
  marginLeft: '$1',
  fontSize: '$1',
  color: '$textMuted',
  fontStyle: 'italic',
});

/** One line of {@link CallCaptions}. */
export interface CallCaptionLine {
  /** A stable key (the message's id). */
  id: string;
  /** Who said it: the person, or a mate. */
  who: 'person' | 'mate';
  /** The speaker's name as shown ("You", the mate's name). */
  name: string;
  /** What was said so far. */
  text: string;
  /** The person interrupted this reply: a small mark after it. */
  cut?: boolean;
}

/** Words the captions use, in the app's language. */
export interface CallCaptionsLabels {
  /** The region's name, e.g. "Live captions". */
  region: string;
  /** The mark after a reply the person interrupted, e.g. "(cut)". */
  cut: string;
}

/** Props of {@link CallCaptions}. */
export interface CallCaptionsProps {
  /** The lines, oldest first. */
  lines: CallCaptionLine[];
  /** Words, in the app's language. */
  labels: CallCaptionsLabels;
}

/**
 * The live caption of a call, both sides: each line the speaker's name and words, a reply the
 * person cut marked. A polite live region (`role="log"`), so screen readers read new lines
 * without interrupting.
 */
export function CallCaptions({ lines, labels }: CallCaptionsProps) {
  return (
    // Focusable: a keyboard scrolls it back when it is longer than its box.
    <Log role="log" aria-live="polite" aria-label={labels.region} tabIndex={0}>
      {lines.map((line) => (
        <Line key={line.id} who={line.who}>
          <Who>{line.name}: </Who>
          {line.text}
          {line.cut && <Cut>{labels.cut}</Cut>}
        </Line>
      ))}
    </Log>
  );
}
