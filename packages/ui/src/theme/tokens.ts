// The design tokens as plain data: the Stitches configuration is built from them, and they are
// exported as they are for teams that build a matching component with other tools. This module
// imports nothing, so importing the tokens costs no styling runtime.

/** The prefix of every CSS variable and class name the kit writes (`--mates-colors-bg`). */
export const TOKEN_PREFIX = 'mates';

/** The names of the kit's two themes. */
export type ThemeName = 'dark' | 'light';

/**
 * The design tokens of the dark theme, the default (companion apps are used at night): each
 * scale maps a token's name to its CSS value.
 */
export const tokens = {
  colors: {
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
} as const;

/** The shape of a theme's tokens: every scale of {@link tokens}, each token a CSS value. */
export type Tokens = {
  readonly [Scale in keyof typeof tokens]: Record<keyof (typeof tokens)[Scale], string>;
};

/** The scales of the tokens: `colors`, `space`, `sizes`, `radii`, `fonts`, ... */
export type TokenScale = keyof Tokens;

/** What the light theme changes: the colours and the shadows (the focus ring among them). */
export const lightThemeTokens = {
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
} as const satisfies Partial<Tokens>;

/** Every token of each theme, by theme name: `themeTokens.light.colors.bg` is `#fbf9fe`. */
export const themeTokens: { readonly [Name in ThemeName]: Tokens } = /* @__PURE__ */ byTheme(
  tokens,
  lightThemeTokens,
);

/**
 * Each token as the CSS variable the kit sets (`tokenVars.colors.bg` is
 * `var(--mates-colors-bg)`): a style written with these follows the theme of the
 * `ThemeProvider` around it.
 */
export const tokenVars: Tokens = /* @__PURE__ */ toVars(tokens);

/** The media queries of the kit's breakpoints (`bp1` phone-landscape, `bp2` tablet, `bp3` desktop). */
export const breakpoints = {
  bp1: '(min-width: 480px)',
  bp2: '(min-width: 768px)',
  bp3: '(min-width: 1024px)',
  reducedMotion: '(prefers-reduced-motion: reduce)',
} as const;

// Built by calls marked pure, so that a bundle that uses no token keeps none of them.
function byTheme(dark: Tokens, light: Partial<Tokens>): { [Name in ThemeName]: Tokens } {
  return { dark, light: { ...dark, ...light } };
}

function toVars(values: Tokens): Tokens {
  const scales = Object.entries(values).map(([scale, entries]) => [
    scale,
    Object.fromEntries(
      Object.keys(entries).map((name) => [name, `var(--${TOKEN_PREFIX}-${scale}-${name})`]),
    ),
  ]);
  return Object.fromEntries(scales) as Tokens;
}
