import { afterEach, describe, expect, test } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createServices } from '../lib/services';
import { ServicesProvider } from '../lib/services-context';
import { AppTheme } from './app-theme';

const memory = () => {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
};

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

describe('the app theme', () => {
  test('is the choice once made, and the system colour scheme before', async () => {
    const services = createServices({
      apiBase: '/api',
      storage: memory(),
      tabStorage: memory(),
      navigate: () => {},
      reload: () => {},
      browserLanguages: [],
    });
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    act(() =>
      root!.render(
        <ServicesProvider services={services}>
          <AppTheme>
            <p>Mates</p>
          </AppTheme>
        </ServicesProvider>,
      ),
    );
    const scheme = () => document.documentElement.style.colorScheme;
    const systemLight = window.matchMedia('(prefers-color-scheme: light)').matches;
    expect(scheme()).toBe(systemLight ? 'light' : 'dark');
    act(() => services.store.trigger.themeChanged({ theme: 'light' }));
    expect(scheme()).toBe('light');
    act(() => services.store.trigger.themeChanged({ theme: 'dark' }));
    expect(scheme()).toBe('dark');
  });
});
