import { afterEach, describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { act } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server.browser';
import { Button } from '../controls/button';
import { Dialog } from '../feedback/dialog';
import { getCssText } from './stitches.config';
import { ThemeProvider } from './theme-provider';
import { themeTokens } from './tokens';

let root: Root | null = null;
let host: HTMLElement | null = null;

afterEach(async () => {
  await act(async () => root?.unmount());
  host?.remove();
  document.documentElement.className = '';
  document.documentElement.style.colorScheme = '';
  root = null;
  host = null;
});

function mount(): HTMLElement {
  host = document.createElement('div');
  document.body.append(host);
  return host;
}

/** The page as a host app sees it: what the kit must leave alone unless asked. */
function pageLook() {
  const body = getComputedStyle(document.body);
  return {
    htmlClass: document.documentElement.className,
    scheme: document.documentElement.style.colorScheme,
    background: body.backgroundColor,
    color: body.color,
    font: body.fontFamily,
    margin: body.margin,
  };
}

/** A CSS colour as the browser computes it. */
function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

const light = themeTokens.light.colors;

describe('ThemeProvider', () => {
  test('by default, themes its container and the dialogs it opens, not the host page', async () => {
    const before = pageLook();
    root = createRoot(mount());
    await act(async () =>
      root!.render(
        <ThemeProvider theme="light">
          <Button>Continue</Button>
          <Dialog open onOpenChange={() => {}} title="Hide this mate">
            Why?
          </Dialog>
        </ThemeProvider>,
      ),
    );
    expect(pageLook()).toEqual(before);
    const container = host!.firstElementChild as HTMLElement;
    expect(getComputedStyle(container).backgroundColor).toBe(rgb(light.bg));
    expect(getComputedStyle(container).color).toBe(rgb(light.text));
    // The dialog is portalled to <body>, outside the container, and still light.
    const dialog = page.getByRole('dialog').element() as HTMLElement;
    expect(container.contains(dialog)).toBe(false);
    expect(getComputedStyle(dialog).backgroundColor).toBe(rgb(light.surface));
    expect(getComputedStyle(dialog).color).toBe(rgb(light.text));
  });

  test('with `page`, styles the page as the Mates app wants it', async () => {
    root = createRoot(mount());
    await act(async () =>
      root!.render(
        <ThemeProvider theme="light" page>
          Mates
        </ThemeProvider>,
      ),
    );
    const look = pageLook();
    expect(look.background).toBe(rgb(light.bg));
    expect(look.margin).toBe('0px');
    expect(look.htmlClass).toBe('mates-light');
    expect(look.scheme).toBe('light');
  });

  test('a light page rendered on the server is light before hydration, and stays so', async () => {
    const app = (
      <ThemeProvider theme="light">
        <Button>Continue</Button>
      </ThemeProvider>
    );
    const element = mount();
    element.innerHTML = renderToString(app);
    const style = document.createElement('style');
    style.textContent = getCssText();
    document.head.append(style);
    const container = element.firstElementChild as HTMLElement;
    // No script of the kit has run on this HTML yet: what the server sent is what shows.
    const drawn = () => getComputedStyle(container).backgroundColor;
    expect(drawn()).toBe(rgb(light.bg));
    const errors: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(element, app, { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    expect(element.firstElementChild).toBe(container);
    expect(drawn()).toBe(rgb(light.bg));
    style.remove();
  });
});
