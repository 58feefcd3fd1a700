// What Chromatic snapshots every story in (its "modes": each a set of Storybook globals): both
// colour themes, at the desktop width the story tests use and at a phone's width (390 px, an
// iPhone 12 to 15). Each mode has its own baseline and its own review.

/** The phone width designers check, as the `phone` viewport of the toolbar shows it. */
export const PHONE = { width: 390, height: 844 };

/** Chromatic's modes: each colour theme on a desktop and on a phone. */
export const allModes = {
  'dark desktop': { theme: 'dark', viewport: 1280 },
  'light desktop': { theme: 'light', viewport: 1280 },
  'dark phone': { theme: 'dark', viewport: PHONE },
  'light phone': { theme: 'light', viewport: PHONE },
} as const;
