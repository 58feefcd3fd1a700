import { enFirstScreen } from './en-first-screen';
import { enScreens } from './en-screens';

/**
 * Every text of the app in English: the source the other languages translate. Written in two
 * parts so that the first screen ships only its own (./en-first-screen).
 */
export const en = { ...enFirstScreen, ...enScreens } as const;

/** The shape every language fills: the same keys as English, any strings. */
export type Messages = { [K in keyof typeof en]: Widen<(typeof en)[K]> };
type Widen<T> = T extends string ? string : { [K in keyof T]: Widen<T[K]> };
