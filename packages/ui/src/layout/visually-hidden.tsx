import type { ReactNode } from 'react';
import { VisuallyHidden as RadixVisuallyHidden } from '@radix-ui/react-visually-hidden';

/** Props of {@link VisuallyHidden}. */
export interface VisuallyHiddenProps {
  children: ReactNode;
}

/** Content for screen readers only. */
export function VisuallyHidden({ children }: VisuallyHiddenProps) {
  return <RadixVisuallyHidden>{children}</RadixVisuallyHidden>;
}
