import { createStitches } from '@stitches/react';

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
  theme: {
    colors: {
      // Dark first: companion apps are used at night.
      bg: '#121016',
      surface: '#1c1922',
      surfaceRaised: '#26222e',
      border: '#3a3444',
      text: '#f1eef6',
      textMuted: '#b9b1c6',
      accent: '#c9a7ff',
      accentStrong: '#a77bf3',
      onAccent: '#1a1024',
      danger: '#ff8a8a',
      dangerSurface: '#3b1d22',
      success: '#8ee0b0',
      focus: '#ffd166',
      overlay: 'rgba(8, 6, 12, 0.72)',
    },
    space: { 1: '4px', 2: '8px', 3: '12px', 4: '16px', 5: '24px', 6: '32px', 7: '48px', 8: '64px' },
    sizes: { dialog: '500px', field: '44px', icon: '20px', container: '1200px' },
    radii: { 1: '6px', 2: '10px', 3: '16px', round: '9999px' },
    fonts: {
      body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
      heading: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
    },
    fontSizes: { 1: '12px', 2: '14px', 3: '16px', 4: '18px', 5: '22px', 6: '28px', 7: '36px' },
    fontWeights: { regular: '400', medium: '500', bold: '700' },
    lineHeights: { tight: '1.2', body: '1.5' },
    shadows: { raised: '0 8px 30px rgba(0, 0, 0, 0.45)', focus: '0 0 0 3px #ffd166' },
    transitions: { dialog: '300ms' },
  },
  media: {
    bp1: '(min-width: 480px)',
    bp2: '(min-width: 768px)',
    bp3: '(min-width: 1024px)',
    reducedMotion: '(prefers-reduced-motion: reduce)',
  },
  utils: {
    px: (value: string) => ({ paddingLeft: value, paddingRight: value }),
    py: (value: string) => ({ paddingTop: value, paddingBottom: value }),
    size: (value: string) => ({ width: value, height: value }),
  },
});

/** The light theme, applied by adding its class name to a container. */
export const lightTheme = /* @__PURE__ */ createTheme('light', {
  colors: {
    bg: '#fbf9fe',
    surface: '#ffffff',
    surfaceRaised: '#f3eefa',
    border: '#d9d0e6',
    text: '#1d1626',
    textMuted: '#5d5470',
    accent: '#6f3fd1',
    accentStrong: '#5a2db8',
    onAccent: '#ffffff',
    danger: '#b3261e',
    dangerSurface: '#fde7e7',
    success: '#1f7a48',
    focus: '#8a5a00',
    overlay: 'rgba(29, 22, 38, 0.5)',
  },
  shadows: { raised: '0 8px 30px rgba(60, 40, 90, 0.18)', focus: '0 0 0 3px #8a5a00' },
});

/** Page-wide styles: the theme's background and text, and a visible keyboard focus. */
export const globalStyles = /* @__PURE__ */ globalCss({
  '*, *::before, *::after': { boxSizing: 'border-box' },
  body: {
    margin: 0,
    backgroundColor: '$bg',
    color: '$text',
    fontFamily: '$body',
    lineHeight: '$body',
  },
  ':focus-visible': { outline: 'none', boxShadow: '$focus' },
});

/**
 * The CSS of every style rendered so far, for server rendering: render the app to a string,
 * then put this text in a `<style id="stitches">` in the page's `<head>`; in the browser,
 * the kit takes those rules over instead of inserting them again.
 */
export const getCssText: () => string = renderedCss;
