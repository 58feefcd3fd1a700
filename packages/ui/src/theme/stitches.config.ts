import { createStitches } from '@stitches/react';
import { breakpoints, lightThemeTokens, TOKEN_PREFIX, tokens, type ThemeName } from './tokens';

// The one Stitches instance of Mates. Everything that styles goes through it, and it never
// leaves this package, so that the styling engine can be replaced in one place.
export const {
  styled,
  css,
  keyframes,
  globalCss,
  createTheme,
  theme,
  getCssText: renderedCss,
} = createStitches({
  // Prefixed variables and class names (`--mates-colors-bg`, `mates-c-…`): a host page's own
  // styles and another Stitches app cannot clash with the kit's.
  prefix: TOKEN_PREFIX,
  theme: tokens,
  media: breakpoints,
  utils: {
    px: (value: string) => ({ paddingLeft: value, paddingRight: value }),
    py: (value: string) => ({ paddingTop: value, paddingBottom: value }),
    size: (value: string) => ({ width: value, height: value }),
  },
});

/** The light theme, applied by adding its class name (`mates-light`) to a container. */
export const lightTheme = /* @__PURE__ */ createTheme('mates-light', lightThemeTokens);

/** The class of every element the kit's styles scope to: the provider's container and portals. */
export const SCOPE_CLASS = 'mates-scope';
/** The class of the container `ThemeProvider` renders. */
export const ROOT_CLASS = 'mates-root';

/**
 * What the kit's own elements need, and only inside its scope (the provider's container and
 * the kit's portaled layers): border-box sizing, the theme's text, and a visible keyboard focus.
 * `:where()` keeps each rule at the specificity the kit's elements were designed against (that
 * of a bare `*` or `:focus-visible`), so every component's own rules still win over them. The
 * selectors are plain literals (the prefix written out) so that a bundle which renders no
 * `ThemeProvider` drops the whole call.
 */
export const scopeStyles = /* @__PURE__ */ globalCss({
  ':where(.mates-scope), :where(.mates-scope) *, :where(.mates-scope) *::before, :where(.mates-scope) *::after':
    { boxSizing: 'border-box' },
  ':where(.mates-scope)': {
    color: '$text',
    fontFamily: '$body',
    lineHeight: '$body',
    colorScheme: 'dark',
  },
  ':where(.mates-light)': { colorScheme: 'light' },
  ':where(.mates-root)': { backgroundColor: '$bg' },
  ':where(.mates-scope):focus-visible, :where(.mates-scope) :focus-visible': {
    outline: 'none',
    boxShadow: '$focus',
  },
});

/**
 * Page-wide styles, only for a page that opts in (`ThemeProvider page`): the theme's
 * background and text on `<body>`, without its margin.
 */
export const pageStyles = /* @__PURE__ */ globalCss({
  body: {
    margin: 0,
    backgroundColor: '$bg',
    color: '$text',
    fontFamily: '$body',
    lineHeight: '$body',
  },
});

/**
 * The class name that applies a theme to an element and what it contains (and inserts the
 * theme's variables into the sheet that `getCssText()` returns).
 */
export function getThemeClassName(name: ThemeName): string {
  return name === 'light' ? lightTheme.className : theme.className;
}

/**
 * The CSS of every style rendered so far, for server rendering: render the app to a string,
 * then put this text in a `<style id="stitches">` in the page's `<head>`; in the browser,
 * the kit takes those rules over instead of inserting them again.
 */
export const getCssText: () => string = renderedCss;
