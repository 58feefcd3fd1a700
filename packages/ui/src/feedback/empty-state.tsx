import type { ReactNode } from 'react';
import { styled } from '../theme/stitches.config';

const Frame = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '$3',
  padding: '$7 $4',
  textAlign: 'center',
  color: '$textMuted',
});
const Title = /* @__PURE__ */ styled('h2', { margin: 0, fontSize: '$4', color: '$text' });

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  title: string;
  description?: string;
  /** What to do about it: a button or a link. */
  action?: ReactNode;
  /** `alert` for failures (announced at once); default a plain region. */
  tone?: 'empty' | 'error';
}

/** What a list says when there is nothing in it, or when it failed to load. */
export function EmptyState({ title, description, action, tone = 'empty' }: EmptyStateProps) {
  return (
    <Frame role={tone === 'error' ? 'alert' : undefined}>
      <Title>{title}</Title>
      {description && <p style={{ margin: 0 }}>{description}</p>}
      {action}
    </Frame>
  );
}
