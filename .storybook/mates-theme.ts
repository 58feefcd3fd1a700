import { create } from 'storybook/theming/create';
import { tokens } from '../packages/ui/src/theme/tokens';

// Storybook's own chrome (sidebar, toolbar, panels) and its docs pages in the product's look:
// the dark theme's tokens, the theme the product opens in, so that a docs page is not a white
// page with dark tiles on it.
const { colors, fonts, radii } = tokens;

/** The Storybook theme of the manager and the docs pages, built from the kit's tokens. */
export const matesTheme = create({
  base: 'dark',
  brandTitle: 'Mates design system',
  colorPrimary: colors.accent,
  colorSecondary: colors.accentStrong,
  appBg: colors.surface,
  appContentBg: colors.bg,
  appHoverBg: colors.surfaceRaised,
  appPreviewBg: colors.bg,
  appBorderColor: colors.border,
  appBorderRadius: parseInt(radii[2], 10),
  fontBase: fonts.body,
  fontCode: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
  textColor: colors.text,
  textInverseColor: colors.onAccent,
  textMutedColor: colors.textMuted,
  barTextColor: colors.textMuted,
  barHoverColor: colors.accent,
  barSelectedColor: colors.accent,
  barBg: colors.surface,
  buttonBg: colors.surfaceRaised,
  buttonBorder: colors.border,
  booleanBg: colors.surfaceRaised,
  booleanSelectedBg: colors.accentStrong,
  inputBg: colors.surfaceRaised,
  inputBorder: colors.border,
  inputTextColor: colors.text,
  inputBorderRadius: parseInt(radii[1], 10),
});
