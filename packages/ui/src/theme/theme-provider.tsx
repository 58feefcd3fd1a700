'use client';

import { useEffect, type ReactNode } from 'react';
import { globalStyles, lightTheme } from './stitches.config';

/** Props of {@link ThemeProvider}. */
export interface ThemeProviderProps {
  /** `dark` (default) or `light`. */
  theme?: 'dark' | 'light';
  children: ReactNode;
}

/** Applies the page-wide styles and the chosen theme to everything inside it. */
export function ThemeProvider({ theme = 'dark', children }: ThemeProviderProps) {
  globalStyles();
  useEffect(() => {
    document.documentElement.classList.toggle(lightTheme.className, theme === 'light');
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return <>{children}</>;
}
