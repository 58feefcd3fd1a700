'use client';

import type { ReactElement } from 'react';
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { styled } from '../theme/stitches.config';
import { usePortalClassName } from '../theme/theme-context';

const Content = /* @__PURE__ */ styled(RadixTooltip.Content, {
  padding: '$1 $2',
  borderRadius: '$1',
  backgroundColor: '$text',
  color: '$bg',
  fontSize: '$1',
  // Above dialogs (100) and open selects (110).
  zIndex: 120,
});

/** Props of {@link Tooltip}. */
export interface TooltipProps {
  /** The hint; also shown on keyboard focus. */
  content: string;
  /** One focusable element. */
  children: ReactElement;
}

/** A short hint on hover and focus. It adds no name: name the element itself. */
export function Tooltip({ content, children }: TooltipProps) {
  const portalClassName = usePortalClassName();
  return (
    <RadixTooltip.Provider delayDuration={300}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <Content className={portalClassName} sideOffset={6}>
            {content}
          </Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
