import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  Button,
  Dialog,
  getCssText,
  getThemeClassName,
  ThemeProvider,
  themeTokens,
  tokenVars,
  type ThemeName,
  type Tokens,
} from '../index';

/** The README recipe's choice: the `theme` cookie the page's switch writes, dark without one. */
function themeFromCookie(cookie: string | undefined): ThemeName {
  return /(?:^|;\s*)theme=light(?:;|$)/.test(cookie ?? '') ? 'light' : 'dark';
}

/** The page of the README's recipe: the theme from the cookie, the CSS in the head. */
function renderPage(cookie: string | undefined): string {
  const theme = themeFromCookie(cookie);
  const body = renderToString(
    <ThemeProvider theme={theme}>
      <Button>Sign in</Button>
    </ThemeProvider>,
  );
  return `<!doctype html><html><head><style id="stitches">${getCssText()}</style></head><body><div id="root">${body}</div></body></html>`;
}

describe('a light theme rendered on the server', () => {
  const html = renderPage('lang=en; theme=light');

  it('is in the first HTML: the container carries the light theme class', () => {
    expect(html).toContain(
      '<div class="mates-scope mates-root mates-light" data-mates-theme="light">',
    );
  });

  it('has its variables in the head, before anything is drawn', () => {
    const head = html.slice(0, html.indexOf('<body>'));
    expect(head).toContain('.mates-light{--mates-colors-bg:#fbf9fe;');
    expect(head).toContain('--mates-colors-text:#1d1626');
    // The container paints the theme's background itself: nothing waits for a script.
    expect(head).toMatch(/:where\(\.mates-root\)\{background-color:var\(--mates-colors-bg\)\}/);
  });

  it('and a page without the cookie renders dark', () => {
    expect(renderPage(undefined)).toMatch(/<div class="mates-scope mates-root mates-t-\w+"/);
  });
});

describe('getThemeClassName', () => {
  it('names the class that applies each theme, for a page that puts it on <html>', () => {
    expect(getThemeClassName('light')).toBe('mates-light');
    expect(getThemeClassName('dark')).toMatch(/^mates-t-\w+$/);
    expect(getCssText()).toContain(`.${getThemeClassName('dark')}{--mates-colors-bg:#121016`);
  });
});

describe('page-wide styles', () => {
  it('are written only for a provider that opts in with `page`', () => {
    renderToString(
      <ThemeProvider>
        <Dialog open onOpenChange={() => {}} title="Hello">
          Hi
        </Dialog>
      </ThemeProvider>,
    );
    expect(getCssText()).not.toMatch(/(^|[}{])body\{/);
    renderToString(<ThemeProvider page>Hi</ThemeProvider>);
    expect(getCssText()).toMatch(
      /(^|[}{])body\{margin:0;background-color:var\(--mates-colors-bg\)/,
    );
  });
});

describe('the exported tokens', () => {
  it('are the values the kit draws with, in each theme, under the variables tokenVars names', () => {
    renderToString(<ThemeProvider theme="light">Hi</ThemeProvider>);
    const css = getCssText();
    const rules = {
      dark: css.match(/:root,\.mates-t-\w+\{([^}]*)\}/)![1]!,
      light: css.match(/\.mates-light\{([^}]*)\}/)![1]!,
    };
    const declared = (theme: ThemeName, variable: string) =>
      new RegExp(`(^|;)${variable}:([^;]*)`).exec(rules[theme])?.[2];
    for (const theme of ['dark', 'light'] as const) {
      for (const [scale, values] of Object.entries(themeTokens[theme])) {
        for (const [name, value] of Object.entries(values)) {
          const variable = tokenVars[scale as keyof Tokens][name as never] as string;
          expect(variable).toBe(`var(--mates-${scale}-${name})`);
          const stated =
            declared(theme, variable.slice(4, -1)) ?? declared('dark', variable.slice(4, -1));
          expect(stated?.replaceAll(' ', ''), `${theme} ${scale}.${name}`).toBe(
            (value as string).replaceAll(' ', ''),
          );
        }
      }
    }
  });
});
