import { forwardRef, useRef, type MouseEvent, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { ScrollArea } from '../layout/scroll-area';

const Frame = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  height: '100dvh',
  overflow: 'hidden',
});
const Body = /* @__PURE__ */ styled('div', { flex: 1, minHeight: 0 });
const Page = /* @__PURE__ */ styled('main', {
  paddingBlock: '$5',
  // Reached by the skip link: focus lands here without a ring around the whole page.
  '&:focus': { outline: 'none', boxShadow: 'none' },
});
// Out of sight until a keyboard reaches it: the first Tab stop of every screen.
const SkipLink = /* @__PURE__ */ styled('a', {
  position: 'absolute',
  insetInlineStart: '$2',
  top: '$2',
  zIndex: 10,
  paddingBlock: '$2',
  paddingInline: '$3',
  borderRadius: '$2',
  backgroundColor: '$surfaceRaised',
  color: '$text',
  fontFamily: '$body',
  transform: 'translateY(-200%)',
  '&:focus': { transform: 'none' },
});

/** Props of {@link AppFrame}. */
export interface AppFrameProps {
  /** The header, or nothing on screens without one. */
  header?: ReactNode;
  /** The footer, at the end of the scrolling content. */
  footer?: ReactNode;
  /** The main container's accessible name; default "Main content". */
  label?: string;
  /** The skip link's text, the first Tab stop: it moves the focus to the main container; default "Skip to content". */
  skipLabel?: string;
  children: ReactNode;
}

/**
 * The app's frame: a skip link (the first Tab stop), the header on top, and below it the main
 * container that scrolls (its ref is the scrolling element, for scrolling to the top after a
 * navigation).
 */
export const AppFrame = /* @__PURE__ */ forwardRef<HTMLDivElement, AppFrameProps>(function AppFrame(
  { header, footer, label = 'Main content', skipLabel = 'Skip to content', children },
  ref,
) {
  const main = useRef<HTMLElement>(null);
  // Apps on a hash router cannot jump to `#main` (the hash is their route): focus it instead.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    main.current?.focus();
  };
  return (
    <Frame>
      <SkipLink href="#main-content" onClick={skip}>
        {skipLabel}
      </SkipLink>
      {header}
      <Body>
        {/* The scroller is no landmark itself: <main> is, and the footer beside it stays the page's contentinfo. */}
        <ScrollArea ref={ref}>
          <Page ref={main} id="main-content" tabIndex={-1} aria-label={label}>
            {children}
          </Page>
          {footer}
        </ScrollArea>
      </Body>
    </Frame>
  );
});
