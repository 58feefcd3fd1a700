import { forwardRef, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { ScrollArea } from '../layout/scroll-area';

const Frame = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  height: '100dvh',
  overflow: 'hidden',
});
const Body = /* @__PURE__ */ styled('div', { flex: 1, minHeight: 0 });
const Page = /* @__PURE__ */ styled('main', { paddingBlock: '$5' });

/** Props of {@link AppFrame}. */
export interface AppFrameProps {
  /** The header, or nothing on screens without one. */
  header?: ReactNode;
  /** The footer, at the end of the scrolling content. */
  footer?: ReactNode;
  /** The main container's accessible name; default "Main content". */
  label?: string;
  children: ReactNode;
}

/**
 * The app's frame: the header on top, and below it the main container that scrolls (its ref
 * is the scrolling element, for scrolling to the top after a navigation).
 */
export const AppFrame = /* @__PURE__ */ forwardRef<HTMLDivElement, AppFrameProps>(function AppFrame(
  { header, footer, label = 'Main content', children },
  ref,
) {
  return (
    <Frame>
      {header}
      <Body>
        {/* The scroller is no landmark itself: <main> is, and the footer beside it stays the page's contentinfo. */}
        <ScrollArea ref={ref}>
          <Page aria-label={label}>{children}</Page>
          {footer}
        </ScrollArea>
      </Body>
    </Frame>
  );
});
