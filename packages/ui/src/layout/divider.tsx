import { styled } from '../theme/stitches.config';

const Row = /* @__PURE__ */ styled('div', {
  display: 'flex',
  alignItems: 'center',
  gap: '$3',
  color: '$textMuted',
  fontSize: '$2',
  '&::before, &::after': { content: '""', flex: 1, height: '1px', backgroundColor: '$border' },
});
const Line = /* @__PURE__ */ styled('hr', {
  border: 'none',
  height: '1px',
  backgroundColor: '$border',
  margin: 0,
});

/** Props of {@link Divider}. */
export interface DividerProps {
  /** A word in the middle of the line, e.g. "or". */
  label?: string;
}

/** A horizontal rule, optionally with a word in the middle. */
export function Divider({ label }: DividerProps) {
  if (!label) return <Line />;
  return (
    <Row role="separator" aria-label={label}>
      <span aria-hidden="true">{label}</span>
    </Row>
  );
}
