'use client';

import { useEffect, type ReactNode } from 'react';
import {
  getThemeClassName,
  lightTheme,
  pageStyles,
  ROOT_CLASS,
  SCOPE_CLASS,
  scopeStyles,
} from './stitches.config';
import { PortalClassNameProvider } from './theme-context';
import type { ThemeName } from './tokens';

/** Props of {@link ThemeProvider}. */
export interface ThemeProviderProps {
  /** `dark` (default) or `light`. */
  theme?: ThemeName;
  /**
   * Also style the whole page, as the Mates web app does: the theme's background, text and font
   * on `<body>` (without its margin), and the theme's class and `color-scheme` on `<html>`.
   * Off by default: the kit then styles only its own container and what it portals.
   */
  page?: boolean;
  /** What the theme applies to. */
  children: ReactNode;
}

/**
 * Applies the chosen theme to a container it renders (a `div` with the theme's background,
 * text and font) and to what the kit portals out of it; nothing outside it changes unless
 * `page` is set. Server rendering gives the container its theme class in the first HTML.
 */
export function ThemeProvider({ theme = 'dark', page = false, children }: ThemeProviderProps) {
  scopeStyles();
  if (page) pageStyles();
  const themeClassName = getThemeClassName(theme);
  useEffect(() => {
    if (!page) return;
    // On <html> too, so that the page's scrollbars, its overscroll and anything portalled by
    // other libraries follow the theme.
    document.documentElement.classList.toggle(lightTheme.className, theme === 'light');
    document.documentElement.style.colorScheme = theme;
  }, [page, theme]);
  return (
    <PortalClassNameProvider value={`${SCOPE_CLASS} ${themeClassName}`}>
      <div className={`${SCOPE_CLASS} ${ROOT_CLASS} ${themeClassName}`} data-mates-theme={theme}>
        {children}
      </div>
    </PortalClassNameProvider>
  );
}
